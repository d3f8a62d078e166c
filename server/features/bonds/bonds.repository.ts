import { sql, type SQL } from "drizzle-orm";
import { choosesCompany, scopeOf, type Actor } from "../../access/actor.ts";
import { canSeeSuretyCapacity, canViewCollateral, canWriteLedger } from "../../access/policies/bond.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { keysetAfter } from "../../db/keyset.ts";
import { pageClause } from "../../db/page-clause.ts";
import { companyTodaySql, zoneTodaySql } from "../../time/company-today.ts";
import {
  BOND_BREAKDOWN_ROWS,
  DEFAULT_CURRENCY,
  isOpenBondStatus,
  percentOfLimit,
  type BondSortField,
  type BondStatus,
} from "../../../shared/domain/bonds.ts";
import { EXPIRING_SOON_DAYS } from "../../../shared/domain/constants.ts";
import { recordUrgency } from "../../../shared/domain/record-status.ts";
import type { GuaranteeType } from "../../../shared/domain/statuses.ts";
import type {
  BondFilter,
  BondListItem,
  BondSummary,
  BySurety,
  ExposureRow,
} from "../../../shared/schemas/bonds-page.ts";
import type { ScopeContents } from "../../../shared/schemas/scope-contents.ts";
import {
  likePattern,
  presentScopeContents,
  scopeContentsSql,
  type ScopeContentsRow,
} from "../permits/index.ts";
import { scopeSql } from "./bond-access.ts";

/** The Bonds page's rows: bonds (alias p) within the actor's scope and the page's filters. */
export function bondFilterSql(actor: Actor, f: BondFilter): SQL {
  const conds: SQL[] = [sql`p.record_type = 'bond'`, scopeSql(actor, "p")];
  if (choosesCompany(actor) && f.company_id) conds.push(sql`p.company_id = ${f.company_id}`);
  if (f.surety_id === "none") conds.push(sql`p.surety_id is null`);
  else if (f.surety_id) conds.push(sql`p.surety_id = ${f.surety_id}`);
  if (f.client_id) conds.push(sql`p.client_id = ${f.client_id}`);
  if (f.project_id) conds.push(sql`p.project_id = ${f.project_id}`);
  if (f.status) conds.push(sql`p.bond_status = ${f.status}`);
  if (f.guarantee_type) conds.push(sql`p.guarantee_type = ${f.guarantee_type}`);
  if (f.q) {
    const q = likePattern(f.q);
    // Project and client names as sets of ids (one hashed subquery each), never a lookup per bond.
    const company = scopeOf(actor).companyId;
    const inCompany = (alias: string) =>
      company ? sql`${sql.raw(alias)}.company_id = ${company} and ` : sql``;
    conds.push(sql`(p.permit_number ilike ${q} or p.permit_name ilike ${q} or p.bond_number ilike ${q}
      or p.agency ilike ${q} or p.surety_company ilike ${q}
      or p.project_id in (select pr.id from projects pr where ${inCompany("pr")}(pr.name ilike ${q} or pr.project_number ilike ${q}))
      or p.client_id in (select cl.id from clients cl where ${inCompany("cl")}cl.name ilike ${q}))`);
  }
  return sql.join(conds, sql` and `);
}

/**
 * "Today" for the expiring-soon window: once per statement in the company's time zone for an
 * actor of one company (or a super-admin who chose one), else per bond's company.
 */
function todaySql(actor: Actor, f: BondFilter): SQL {
  const company = scopeOf(actor).companyId ?? (choosesCompany(actor) ? f.company_id : null);
  return companyTodaySql(company ?? sql`p.company_id`);
}

const OPEN = sql.raw(`bond_status in ('active','reduced')`);

interface AggregateRow {
  bonds: number;
  open_exposure: string;
  expiring_soon: number;
  collateral_held: string | null;
  currency: string | null;
  /** The companies' currency in scope when the view has no bond and they share one. */
  scope_currency: string | null;
  by_currency: { currency: string; open_exposure: string; collateral_held: string }[] | null;
  in_scope: ScopeContentsRow;
  by_surety:
    | {
        surety_id: string | null;
        name: string;
        amount: string;
        count: number;
        aggregate_limit: string | null;
        currency: string;
        company: { id: string; name: string } | null;
      }[]
    | null;
  by_client: ExposureRow[] | null;
  by_project: ExposureRow[] | null;
}

export interface BondAggregates {
  summary: BondSummary;
  currency: string | null;
  totals_by_currency: { currency: string; open_exposure: string; collateral_held: string | null }[];
  in_scope: ScopeContents;
  by_surety: BySurety[];
  by_client: ExposureRow[];
  by_project: ExposureRow[];
}

/**
 * The Bonds page's tiles and breakdowns over the whole filtered set, in one statement: the
 * filtered bonds once (a materialized CTE over the bond index), then counts and sums of it. The
 * amounts come from permits.current_amount, kept in step with the ledger, so no ledger is read.
 */
export async function bondAggregates(db: Db, actor: Actor, f: BondFilter): Promise<BondAggregates> {
  const staff = canViewCollateral(actor);
  const company = scopeOf(actor).companyId ?? (choosesCompany(actor) ? f.company_id : null);
  const today = todaySql(actor, f);
  const top = BOND_BREAKDOWN_ROWS;
  const [row] = await queryRows<AggregateRow>(
    db,
    sql`with b as materialized (
          select p.id, p.company_id, p.client_id, p.project_id, p.surety_id, p.bond_status, p.current_amount,
                 p.expiration_date, (p.close_date is null and p.expiration_date between ${today} and ${today} + ${EXPIRING_SOON_DAYS}::int) as soon,
                 co.currency
          from permits p join companies co on co.id = p.company_id
          where ${bondFilterSql(actor, f)}
        ), o as (select * from b where ${OPEN})
        select
          (select count(*)::int from b) as bonds,
          (select coalesce(sum(current_amount), 0.00)::text from o) as open_exposure,
          (select count(*)::int from o where soon) as expiring_soon,
          ${
            staff
              ? sql`(select coalesce(sum(c.amount), 0.00)::text
                     from bond_collateral c join b on b.id = c.permit_id where c.released_on is null)`
              : sql`null`
          } as collateral_held,
          ${
            company
              ? sql`(select c.currency from companies c where c.id = ${company})`
              : sql`(select case when count(distinct currency) = 1 then min(currency) end from b)`
          } as currency,
          ${
            company
              ? sql`null`
              : sql`(select case when count(distinct c.currency) = 1 then min(c.currency) end
                     from companies c)`
          } as scope_currency,
          ${
            company
              ? sql`null`
              : sql`(select json_agg(json_build_object('currency', x.currency, 'open_exposure', x.open::text,
                        'collateral_held', x.held::text) order by x.currency)
                     from (select cur.currency,
                             (select coalesce(sum(o.current_amount), 0.00) from o where o.currency = cur.currency) as open,
                             (select coalesce(sum(c.amount), 0.00) from bond_collateral c join b on b.id = c.permit_id
                              where c.released_on is null and b.currency = cur.currency) as held
                           from (select distinct currency from b) cur) x)`
          } as by_currency,
          ${scopeContentsSql(actor)} as in_scope,
          (select json_agg(json_build_object('surety_id', g.surety_id, 'name', coalesce(s.name, 'No surety'),
                    'amount', g.amount::text, 'count', g.n, 'aggregate_limit', s.aggregate_limit::text,
                    'currency', g.currency,
                    'company', ${company ? sql`null` : sql`json_build_object('id', co.id, 'name', co.name)`})
                  order by g.amount desc, s.name${company ? sql`` : sql`, co.name`})
           from (select surety_id, company_id, currency, coalesce(sum(current_amount), 0.00) as amount,
                        count(*)::int as n
                 from o group by surety_id, company_id, currency) g
           left join sureties s on s.id = g.surety_id
           ${company ? sql`` : sql`join companies co on co.id = g.company_id`}) as by_surety,
          (select json_agg(json_build_object('id', g.client_id, 'name', coalesce(cl.name, 'No client'),
                    'amount', g.amount::text, 'count', g.n, 'currency', g.currency) order by g.amount desc, cl.name)
           from (select client_id, currency, coalesce(sum(current_amount), 0.00) as amount, count(*)::int as n
                 from o group by client_id, currency order by amount desc limit ${top}) g
           left join clients cl on cl.id = g.client_id) as by_client,
          (select json_agg(json_build_object('id', g.project_id, 'name', coalesce(pr.name, 'No project'),
                    'amount', g.amount::text, 'count', g.n, 'currency', g.currency) order by g.amount desc, pr.name)
           from (select project_id, currency, coalesce(sum(current_amount), 0.00) as amount, count(*)::int as n
                 from o group by project_id, currency order by amount desc limit ${top}) g
           left join projects pr on pr.id = g.project_id) as by_project`,
  );
  const r = row!;
  const limits = canSeeSuretyCapacity(actor);
  return {
    summary: {
      open_exposure: r.open_exposure,
      bonds: r.bonds,
      expiring_soon: r.expiring_soon,
      collateral_held: staff ? r.collateral_held : null,
    },
    // No bond in the view: the companies' shared currency, else the default; never none (issue 25).
    currency: r.bonds > 0 ? r.currency : (r.currency ?? r.scope_currency ?? DEFAULT_CURRENCY),
    totals_by_currency:
      r.bonds > 0 && r.currency === null
        ? (r.by_currency ?? []).map((c) => ({ ...c, collateral_held: staff ? c.collateral_held : null }))
        : [],
    in_scope: presentScopeContents(actor, r.in_scope),
    by_surety: (r.by_surety ?? []).map((s) => {
      const limit = limits ? s.aggregate_limit : null;
      return { ...s, aggregate_limit: limit, percent_of_aggregate: percentOfLimit(s.amount, limit) };
    }),
    by_client: r.by_client ?? [],
    by_project: r.by_project ?? [],
  };
}

const SORT_SQL: Record<BondSortField, string> = {
  permit_number: "lower(p.permit_number)",
  permit_name: "lower(p.permit_name)",
  bond_number: "lower(p.bond_number)",
  surety: "lower(coalesce(s.name, p.surety_company))",
  client: "lower(cl.name)",
  project: "lower(pr.name)",
  agency: "lower(p.agency)",
  guarantee_type: "p.guarantee_type",
  status: "p.bond_status",
  bond_amount: "p.bond_amount",
  current_amount: "p.current_amount",
  issue_date: "p.issue_date",
  expiration_date: "p.expiration_date",
};

export interface BondRow {
  id: string;
  permit_number: string;
  permit_name: string;
  bond_number: string | null;
  guarantee_type: GuaranteeType | null;
  bond_status: BondStatus | null;
  bond_amount: string | null;
  current_amount: string | null;
  currency: string;
  company_id: string;
  company_name: string;
  surety_id: string | null;
  surety_name: string | null;
  agency: string | null;
  client_id: string | null;
  client_name: string | null;
  project_id: string | null;
  project_name: string | null;
  project_number: string | null;
  issue_date: string | null;
  expiration_date: string | null;
  close_date: string | null;
  today: string;
  maintenance_of_id: string | null;
  maintenance_bond_id: string | null;
  collateral_held: string | null;
  /** The sort column's value as text: where an export's page ends (keyset pagination). */
  sort_key: string | null;
}

/** A page: `offset` for the Bonds table's numbered pages, `after` (keyset) for the exports' pages. */
export type BondPage = { limit: number } & (
  { offset: number } | { after: Pick<BondRow, "sort_key" | "id"> | null }
);

/**
 * Bonds of the view in the chosen order, one page (or every row, in pages, for the exports): one
 * statement with the company, surety, client and project by primary key; the linked bonds (only
 * those the actor may see) and the unreleased collateral (staff only) as scalar subqueries.
 */
export async function bondRows(
  db: Db,
  actor: Actor,
  f: BondFilter & { sort?: BondSortField; dir: "asc" | "desc"; openOnly?: boolean },
  page: BondPage,
): Promise<BondRow[]> {
  const sortKey = SORT_SQL[f.sort ?? "expiration_date"];
  const dir = f.dir === "desc" ? "desc" : "asc";
  const order = sql.raw(`${sortKey} ${dir} nulls last, p.id`);
  const after =
    "after" in page && page.after
      ? sql`and ${keysetAfter({
          key: sql.raw(sortKey),
          dir,
          tie: [sql`p.id`],
          last: { key: page.after.sort_key, tie: [sql`${page.after.id}::uuid`] },
        })}`
      : sql``;
  return queryRows<BondRow>(
    db,
    sql`select p.id, p.permit_number, p.permit_name, p.bond_number, p.guarantee_type, p.bond_status,
               p.bond_amount::text as bond_amount, p.current_amount::text as current_amount, co.currency,
               co.id as company_id, co.name as company_name, p.surety_id,
               coalesce(s.name, p.surety_company) as surety_name, p.agency,
               p.client_id, cl.name as client_name, p.project_id, pr.name as project_name,
               pr.project_number, p.issue_date::text as issue_date, p.expiration_date::text as expiration_date,
               p.close_date::text as close_date,
               ${zoneTodaySql(sql`co.time_zone`)}::text as today,
               (select f.id from permits f where f.id = p.maintenance_of_id and ${scopeSql(actor, "f")}) as maintenance_of_id,
               (select m.id from permits m where m.maintenance_of_id = p.id and ${scopeSql(actor, "m")}) as maintenance_bond_id,
               ${
                 canViewCollateral(actor)
                   ? sql`(select coalesce(sum(c.amount), 0.00)::text from bond_collateral c
                          where c.permit_id = p.id and c.released_on is null)`
                   : sql`null`
               } as collateral_held,
               (${sql.raw(sortKey)})::text as sort_key
        from permits p
        join companies co on co.id = p.company_id
        left join sureties s on s.id = p.surety_id
        left join clients cl on cl.id = p.client_id
        left join projects pr on pr.id = p.project_id
        where ${bondFilterSql(actor, f)} ${f.openOnly ? sql`and p.${OPEN}` : sql``} ${after}
        order by ${order}
        ${pageClause(page.limit, "offset" in page ? page.offset : 0)}`,
  );
}

/** A row of the Bonds table. */
export function presentBondRow(actor: Actor, r: BondRow): BondListItem {
  return {
    id: r.id,
    permit_number: r.permit_number,
    permit_name: r.permit_name,
    bond_number: r.bond_number,
    guarantee_type: r.guarantee_type,
    status: r.bond_status,
    original_amount: r.bond_amount,
    current_amount: r.current_amount,
    currency: r.currency,
    surety: r.surety_id ? { id: r.surety_id, name: r.surety_name ?? "" } : null,
    agency: r.agency,
    company: { id: r.company_id, name: r.company_name },
    client: r.client_id ? { id: r.client_id, name: r.client_name ?? "" } : null,
    project: r.project_id
      ? { id: r.project_id, name: r.project_name ?? "", project_number: r.project_number }
      : null,
    issue_date: r.issue_date,
    expiration_date: r.expiration_date,
    // Open bonds only (a claim has its own status); a closed one (a close date too) counts down to nothing.
    urgency: isOpenBondStatus(r.bond_status) ? recordUrgency(r, r.today) : null,
    collateral_held: canViewCollateral(actor) ? r.collateral_held : null,
    maintenance_of_id: r.maintenance_of_id,
    maintenance_bond_id: r.maintenance_bond_id,
    can: { edit: canWriteLedger(actor, { companyId: r.company_id, clientId: r.client_id }) },
  };
}
