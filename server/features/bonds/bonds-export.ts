import type { Readable } from "node:stream";
import type { Actor } from "../../access/actor.ts";
import { canViewCollateral } from "../../access/policies/bond.ts";
import { exportsCompanyColumn } from "../../access/policies/export.ts";
import type { Db } from "../../db/client.ts";
import { BOND_STATUS_LABELS, sumMoney } from "../../../shared/domain/bonds.ts";
import type { BondExportQuery, BondFilter } from "../../../shared/schemas/bonds-page.ts";
import { csvStream, xlsxStream, type Cell, type SheetColumn } from "../exports/index.ts";
import { bondRows, type BondRow } from "./bonds.repository.ts";

const PAGE = 2_000;

/** An amount in the bond's company's currency (a number cell in it in Excel, two decimals in CSV). */
const money = (v: string | null, r: BondRow): Cell =>
  v === null ? null : { amount: Number(v), currency: r.currency };

/** The columns of the Bonds page's export; collateral for staff, the company for a super-admin. */
function exportColumns(actor: Actor): (SheetColumn & { value: (r: BondRow) => Cell })[] {
  const columns: (SheetColumn & { value: (r: BondRow) => Cell })[] = [
    { key: "permit_number", header: "Permit Number", value: (r) => r.permit_number },
    { key: "permit_name", header: "Permit Name", value: (r) => r.permit_name },
    { key: "bond_number", header: "Bond Number", value: (r) => r.bond_number },
    { key: "guarantee_type", header: "Guarantee Type", value: (r) => r.guarantee_type },
    {
      key: "bond_status",
      header: "Status",
      value: (r) => (r.bond_status ? BOND_STATUS_LABELS[r.bond_status] : null),
    },
    { key: "surety_company", header: "Surety Company", value: (r) => r.surety_name },
    { key: "agency", header: "Obligee (Agency)", value: (r) => r.agency },
    { key: "client", header: "Client", value: (r) => r.client_name },
    { key: "project", header: "Project", value: (r) => r.project_name },
    { key: "project_number", header: "Project Number", value: (r) => r.project_number },
    { key: "issue_date", header: "Issue Date", type: "date", value: (r) => r.issue_date },
    { key: "expiration_date", header: "Expiration Date", type: "date", value: (r) => r.expiration_date },
    { key: "bond_amount", header: "Original Amount", type: "money", value: (r) => money(r.bond_amount, r) },
    {
      key: "current_amount",
      header: "Current Amount",
      type: "money",
      value: (r) => money(r.current_amount, r),
    },
    { key: "currency", header: "Currency", value: (r) => r.currency },
  ];
  if (canViewCollateral(actor)) {
    columns.push({
      key: "collateral_held",
      header: "Collateral Held",
      type: "money",
      value: (r) => money(r.collateral_held, r),
    });
  }
  if (exportsCompanyColumn(actor))
    columns.push({ key: "company", header: "Company", value: (r) => r.company_name });
  return columns;
}

/** Every row of the view, page by page in its order, each page after the last row of the one before (keyset). */
async function* rowsOf(db: Db, actor: Actor, query: Parameters<typeof bondRows>[2]) {
  let after: BondRow | null = null;
  for (;;) {
    const rows: BondRow[] = await bondRows(db, actor, query, { limit: PAGE, after });
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!;
  }
}

/** GET /api/bonds/export: the Bonds page's current view (filters and sort), every page. */
export function exportBonds(
  db: Db,
  actor: Actor,
  query: Omit<BondExportQuery, "format">,
  format: "csv" | "xlsx",
): Readable {
  const columns = exportColumns(actor);
  async function* cells() {
    for await (const r of rowsOf(db, actor, query)) yield columns.map((c) => c.value(r));
  }
  return format === "xlsx" ? xlsxStream("Bonds", columns, cells()) : csvStream(columns, cells());
}

/**
 * GET /api/bonds/schedule.xlsx, 'Bond Schedule' (issue 12, item 7): one row per open bond (Active or
 * Reduced) within the filters, by surety then expiration, as sureties and lenders ask for it; a
 * last row totals the current amounts (and the collateral, for staff).
 */
export function bondSchedule(db: Db, actor: Actor, filter: BondFilter): Readable {
  const all = exportColumns(actor);
  const keys = [
    "surety_company",
    "bond_number",
    "guarantee_type",
    "agency",
    "project",
    "project_number",
    "client",
    "permit_name",
    "bond_status",
    "issue_date",
    "expiration_date",
    "bond_amount",
    "current_amount",
    "collateral_held",
    "currency",
    "company",
  ];
  const columns = keys.flatMap((k) => all.filter((c) => c.key === k));
  async function* cells() {
    const current: string[] = [];
    const collateral: string[] = [];
    // The totals are in the bonds' currency when they share one (a super-admin's may not).
    const currencies = new Set<string>();
    for await (const r of rowsOf(db, actor, {
      ...filter,
      status: null,
      sort: "surety",
      dir: "asc",
      openOnly: true,
    })) {
      if (r.current_amount) current.push(r.current_amount);
      if (r.collateral_held) collateral.push(r.collateral_held);
      currencies.add(r.currency);
      yield columns.map((c) => c.value(r));
    }
    const total = (amounts: string[]): Cell =>
      currencies.size === 1
        ? { amount: Number(sumMoney(amounts)), currency: [...currencies][0]! }
        : Number(sumMoney(amounts));
    yield columns.map((c, i): Cell => {
      if (i === 0) return "Total";
      if (c.key === "current_amount") return total(current);
      if (c.key === "collateral_held") return total(collateral);
      return null;
    });
  }
  return xlsxStream("Bond Schedule", columns, cells());
}
