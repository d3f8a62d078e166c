import ExcelJS from "exceljs";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { statementsOf } from "../../test-support/statements.ts";
import { useTestContext, type ApiClient } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import type { BondList, BondListItem } from "../../../shared/schemas/bonds-page.ts";
import { parseCsv } from "../imports/index.ts";

const t = useTestContext();

/**
 * A company with bonds under three sureties (one with limits), two clients (one the client-user's),
 * in every status, with collateral; plus another company's bonds that must never count.
 */
const w = useWorld(t, {}, async (w) => {
  const hiddenClient = await t.make.client(w.companyId, "Hidden Client");
  const seen = await t.make.project({ companyId: w.companyId, clientId: w.seenClientId, name: "Seen Tower" });
  const hidden = await t.make.project({
    companyId: w.companyId,
    clientId: hiddenClient.id,
    name: "Hidden Yard",
  });
  const foreignProject = await t.make.project({ companyId: w.otherCompanyId });
  const foreignAdmin = await t.signIn(
    await t.make.user({ role: "company-admin", companyId: w.otherCompanyId }),
  );
  const created = await w.admin.post("/api/sureties", {
    name: "Capacity Surety",
    single_limit: "500000",
    aggregate_limit: "1000000",
    contact_name: "Sid",
  });
  expect(created.statusCode, created.body).toBe(201);
  return {
    seenProjectId: seen.id,
    hiddenProjectId: hidden.id,
    hiddenClientId: hiddenClient.id,
    foreignProjectId: foreignProject.id,
    foreignAdmin,
    capacityId: created.json().surety.id as string,
  };
});

let n = 0;
async function bond(api: ApiClient, over: Record<string, unknown>) {
  n++;
  const res = await api.post("/api/permits", {
    permit_number: `PG-${String(n).padStart(3, "0")}`,
    permit_name: `Page Bond ${n}`,
    record_type: "bond",
    agency: `Agency ${n % 3}`,
    issue_date: "2026-01-05",
    expiration_date: "2030-01-01",
    guarantee_type: n % 2 ? "Performance" : "Maintenance",
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}
const entry = async (id: string, body: object) => {
  const res = await w.admin.post(`/api/bonds/${id}/ledger`, body);
  expect(res.statusCode, res.body).toBe(200);
};

/** A small deterministic random source, so a failure repeats. */
function prng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

let built = false;
async function buildBonds() {
  if (built) return;
  built = true;
  const rnd = prng(42);
  const sureties = [
    { surety_id: w.capacityId },
    { surety_company: "Second Surety" },
    { surety_company: null },
  ];
  const today = todayIn("UTC");
  for (let i = 0; i < 24; i++) {
    const project = i % 3 === 0 ? w.hiddenProjectId : w.seenProjectId;
    const amount = String(Math.round(rnd() * 200000) + 1000) + (i % 4 === 0 ? ".55" : "");
    const id = await bond(w.admin, {
      project_id: project,
      bond_amount: amount,
      ...sureties[Math.floor(i / 2) % 3],
      expiration_date: i % 5 === 0 ? addDays(today, 10) : "2030-01-01",
    });
    const r = rnd();
    if (r < 0.2)
      await entry(id, { kind: "rider", change: "12345.67", effective_date: "2026-02-01", reason: "CO" });
    else if (r < 0.4)
      await entry(id, {
        kind: "reduction",
        percent: "33.3",
        effective_date: "2026-02-01",
        obligee_acceptance_date: "2026-02-01",
      });
    else if (r < 0.5) await entry(id, { kind: "release", effective_date: "2026-03-01" });
    else if (r < 0.6) await entry(id, { kind: "claim", effective_date: "2026-03-01", reason: "Claim" });
    else if (r < 0.65)
      await entry(id, { kind: "cancellation", effective_date: "2026-03-01", reason: "Void" });
    if (i % 4 === 1) {
      const c = await w.admin.post(`/api/bonds/${id}/collateral`, {
        form: "cash",
        amount: `${1000 + i}`,
        held_since: "2026-01-05",
      });
      // Closed bonds take no collateral; the others hold it.
      expect([200, 409]).toContain(c.statusCode);
    }
  }
  // Another company's bonds, open and large: they must never count.
  for (let i = 0; i < 3; i++) {
    await bond(w.foreignAdmin, {
      project_id: w.foreignProjectId,
      bond_amount: "9999999",
      surety_company: "Capacity Surety",
    });
  }
}

const list = async (api: ApiClient, query = "") => {
  const res = await api.get(`/api/bonds${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as BondList;
};

/** Open exposure from the ledger itself: each bond's sum of changes, for bonds whose ledger leaves them open. */
async function ledgerExposure(where = sql`true`) {
  const [row] = await queryRows<{ total: string; n: number }>(
    t.db,
    sql`select coalesce(sum(l.amount), 0)::numeric(14,2)::text as total, count(*)::int as n
        from (select e.permit_id, sum(e.change) as amount from bond_ledger_entries e group by e.permit_id) l
        join permits p on p.id = l.permit_id
        where p.company_id = ${w.companyId} and p.bond_status in ('active','reduced') and ${where}`,
  );
  return row!;
}

describe("the Bonds page", () => {
  it("totals open exposure, bonds, expiring soon and collateral over the whole view, as the table sums them", async () => {
    await buildBonds();
    const page = await list(w.admin, "?page_size=5");
    expect(page.items).toHaveLength(5);
    expect(page.total).toBe(24);
    expect(page.currency).toBe("USD");
    const independent = await ledgerExposure();
    expect(page.summary.open_exposure).toBe(independent.total);
    const [direct] = await queryRows<{ exposure: string; soon: number; collateral: string }>(
      t.db,
      sql`select
            (select coalesce(sum(current_amount),0)::numeric(14,2)::text from permits
              where company_id = ${w.companyId} and record_type = 'bond' and bond_status in ('active','reduced')) as exposure,
            (select count(*)::int from permits where company_id = ${w.companyId} and record_type = 'bond'
              and bond_status in ('active','reduced') and expiration_date between current_date and current_date + 30) as soon,
            (select coalesce(sum(c.amount),0)::numeric(14,2)::text from bond_collateral c
              where c.company_id = ${w.companyId} and c.released_on is null) as collateral`,
    );
    expect(page.summary).toEqual({
      open_exposure: direct!.exposure,
      bonds: 24,
      expiring_soon: direct!.soon,
      collateral_held: direct!.collateral,
    });
    // By surety: each surety's open exposure from the ledger; the limit and its share for staff.
    for (const s of page.by_surety) {
      const where = s.surety_id ? sql`p.surety_id = ${s.surety_id}` : sql`p.surety_id is null`;
      const exp = await ledgerExposure(where);
      expect(s.amount, s.name).toBe(exp.total);
      expect(s.count, s.name).toBe(exp.n);
    }
    const cap = page.by_surety.find((s) => s.surety_id === w.capacityId)!;
    expect(cap).toMatchObject({ name: "Capacity Surety", aggregate_limit: "1000000.00" });
    expect(cap.percent_of_aggregate).toBe(Math.round((Number(cap.amount) / 1_000_000) * 1000) / 10);
    expect(page.by_surety.find((s) => s.surety_id === null)?.name).toBe("No surety");
    // By client and project add up to the same exposure.
    const sum = (rows: { amount: string }[]) =>
      rows.reduce((a, r) => a + Math.round(Number(r.amount) * 100), 0);
    expect(sum(page.by_client)).toBe(Math.round(Number(independent.total) * 100));
    expect(sum(page.by_project)).toBe(Math.round(Number(independent.total) * 100));
    expect(page.can).toEqual({ export: true, manage_sureties: true });
    // A company-user sees capacity on this page too (not the limits in Surety Admin).
    const byUser = await list(w.user);
    expect(byUser.by_surety.find((s) => s.surety_id === w.capacityId)?.aggregate_limit).toBe("1000000.00");
    expect(byUser.can.manage_sureties).toBe(false);
  });

  it("filters, sorts and pages on the server, the aggregates following the filters", async () => {
    await buildBonds();
    const open = await list(w.admin, "?status=reduced&page_size=100");
    expect(open.items.every((b) => b.status === "reduced")).toBe(true);
    expect(open.total).toBe(open.items.length);
    expect(open.summary.open_exposure).toBe((await ledgerExposure(sql`p.bond_status = 'reduced'`)).total);
    const bySurety = await list(w.admin, `?surety_id=${w.capacityId}&page_size=100`);
    expect(bySurety.items.every((b) => b.surety?.id === w.capacityId)).toBe(true);
    expect(bySurety.total).toBe(8);
    const none = await list(w.admin, "?surety_id=none&page_size=100");
    expect(none.items.every((b) => b.surety === null)).toBe(true);
    expect(none.total).toBe(8);
    const client = await list(w.admin, `?client_id=${w.hiddenClientId}&page_size=100`);
    expect(client.total).toBe(8);
    expect(client.by_client.map((c) => c.id)).toEqual(client.by_client.length ? [w.hiddenClientId] : []);
    const maint = await list(w.admin, "?guarantee_type=Maintenance&page_size=100");
    expect(maint.items.every((b) => b.guarantee_type === "Maintenance")).toBe(true);
    const q = await list(w.admin, "?q=second%20surety&page_size=100");
    expect(q.total).toBe(8);
    const tower = await list(w.admin, "?q=tower&page_size=100");
    expect(tower.total).toBe(16);

    const sorted = await list(w.admin, "?sort=current_amount&dir=desc&page_size=100");
    const amounts = sorted.items.map((b) => Number(b.current_amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    const p1 = await list(w.admin, "?sort=permit_number&page=1&page_size=10");
    const p3 = await list(w.admin, "?sort=permit_number&page=3&page_size=10");
    expect(p1.items[0]!.permit_number).toBe("PG-001");
    expect(p3.items).toHaveLength(4);
    expect(p3.summary).toEqual(p1.summary);

    const bad = await w.admin.get("/api/bonds?status=lost&sort=nope&page=0&surety_id=x");
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(["page", "sort", "status", "surety_id"]);
  });

  it("shows a client-user its clients' bonds only, never limits or collateral", async () => {
    await buildBonds();
    const page = await list(w.clientUser, "?page_size=100");
    expect(page.total).toBe(16);
    expect(page.items.every((b: BondListItem) => b.client?.id === w.seenClientId)).toBe(true);
    expect(page.items.every((b) => b.collateral_held === null && !b.can.edit)).toBe(true);
    expect(page.summary.collateral_held).toBeNull();
    expect(page.summary.open_exposure).toBe(
      (await ledgerExposure(sql`p.client_id = ${w.seenClientId}`)).total,
    );
    expect(page.by_surety.some((s) => s.surety_id === w.capacityId)).toBe(true);
    expect(page.by_surety.every((s) => s.aggregate_limit === null && s.percent_of_aggregate === null)).toBe(
      true,
    );
    expect(page.can).toEqual({ export: true, manage_sureties: false });
    expect(JSON.stringify(page)).not.toContain("1000000");
    expect(JSON.stringify(page)).not.toContain("Hidden");
    // The sureties list: names of its bonds' sureties only.
    const sureties = (await w.clientUser.get("/api/sureties")).json();
    expect(sureties.sureties.map((s: { name: string }) => s.name).sort()).toEqual([
      "Capacity Surety",
      "Second Surety",
    ]);
    expect(
      sureties.sureties.every(
        (s: { single_limit: unknown; contact_name: unknown }) =>
          s.single_limit === null && s.contact_name === null,
      ),
    ).toBe(true);
    // Its export has no collateral column either.
    const csv = await w.clientUser.get("/api/bonds/export?format=csv");
    expect(csv.statusCode).toBe(200);
    const table = parseCsv(csv.body.replace(/^\uFEFF/, ""));
    expect(table.header).not.toContain("collateral_held");
    expect(table.rows).toHaveLength(16);
  });

  it("sums exposure beyond a single bond's largest amount without overflow", async () => {
    const company = await t.make.company();
    const project = await t.make.project({ companyId: company.id });
    const admin = await t.signIn(await t.make.user({ role: "company-admin", companyId: company.id }));
    for (let i = 0; i < 3; i++) {
      await bond(admin, {
        project_id: project.id,
        bond_amount: "999999999999.99",
        surety_company: "Huge Surety",
      });
    }
    const page = await list(admin);
    expect(page.summary.open_exposure).toBe("2999999999999.97");
    expect(page.by_surety[0]).toMatchObject({ name: "Huge Surety", amount: "2999999999999.97", count: 3 });
    const sureties = await admin.get("/api/sureties");
    expect(sureties.statusCode).toBe(200);
    expect(sureties.json().sureties[0].open_exposure).toBe("2999999999999.97");
    const id = page.items[0]!.id;
    const over = await admin.post(`/api/bonds/${id}/ledger`, {
      kind: "rider",
      change: "0.01",
      effective_date: "2099-01-01",
      reason: "Too much",
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().fields).toEqual({ change: "The amount cannot exceed 999999999999.99" });
  });

  it("gives a super-admin every company or the one it names, with the currency only when it is one", async () => {
    await buildBonds();
    const all = await list(w.superAdmin, "?page_size=1");
    const [count] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from permits where record_type = 'bond'`,
    );
    expect(all.total).toBe(count!.n);
    const one = await list(w.superAdmin, `?company_id=${w.companyId}&page_size=1`);
    expect(one.total).toBe(24);
    expect(one.summary).toEqual((await list(w.admin, "?page_size=1")).summary);
    // Sureties are each company's own: across companies each row says whose (issue 25), and the two
    // companies' "Capacity Surety" are two rows; within one company no row needs to.
    const capacity = all.by_surety.filter((s) => s.name === "Capacity Surety");
    expect(capacity.map((s) => s.company?.name).sort()).toEqual(["Acme Builders", "Bayline Civil"]);
    expect(all.by_surety.every((s) => s.company !== null)).toBe(true);
    expect(one.by_surety.every((s) => s.company === null)).toBe(true);
    expect((await list(w.admin, "?page_size=1")).by_surety.every((s) => s.company === null)).toBe(true);
    await t.db.execute(sql`update companies set currency = 'EUR' where id = ${w.otherCompanyId}`);
    expect((await list(w.superAdmin, "?page_size=1")).currency).toBeNull();
    expect((await list(w.foreignAdmin, "?page_size=1")).currency).toBe("EUR");
    await t.db.execute(sql`update companies set currency = 'USD' where id = ${w.otherCompanyId}`);
  });

  it("exports a view longer than one page by keyset, ties and empty values included, each bond once", async () => {
    // Issue 26: 4,500 bonds of one company sorted by status (four statuses and none): every
    // 2,000-row page ends inside a run of ties, broken by the id.
    const company = await t.make.company();
    await t.db
      .execute(sql`insert into permits (company_id, permit_number, permit_name, record_type, bond_status)
      select ${company.id}, 'B-' || g, 'Bond ' || g, 'bond',
             (array['active', 'reduced', 'released', 'cancelled', null])[1 + g % 5]
      from generate_series(1, 4500) g`);
    const admin = await t.signIn(await t.make.user({ role: "company-admin", companyId: company.id }));
    for (const dir of ["asc", "desc"] as const) {
      const { result: csv, statements } = await statementsOf(t.database, () =>
        admin.get(`/api/bonds/export?format=csv&sort=status&dir=${dir}`),
      );
      // Three pages, each read after the last row of the one before: no OFFSET anywhere.
      expect(statements.filter((s) => /\bfrom permits p\b/i.test(s))).toHaveLength(3);
      expect(statements.filter((s) => /\boffset\b/i.test(s))).toEqual([]);
      expect(csv.statusCode).toBe(200);
      const exported = parseCsv(csv.body.replace(/^\uFEFF/, "")).rows.map((r) => r.fields[0]);
      const expected = await queryRows<{ n: string }>(
        t.db,
        sql`select permit_number as n from permits where company_id = ${company.id} and record_type = 'bond'
            order by bond_status ${sql.raw(dir)} nulls last, id`,
      );
      expect(exported).toEqual(expected.map((r) => r.n));
      expect(new Set(exported).size).toBe(4500);
    }
  });

  it("exports the current view as CSV and Excel, and the Bond Schedule of open bonds with a total", async () => {
    await buildBonds();
    const csv = await w.admin.get(
      `/api/bonds/export?format=csv&sort=permit_number&surety_id=${w.capacityId}`,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toMatch(/text\/csv/);
    const table = parseCsv(csv.body.replace(/^\uFEFF/, ""));
    expect(table.header).toEqual([
      "permit_number",
      "permit_name",
      "bond_number",
      "guarantee_type",
      "bond_status",
      "surety_company",
      "agency",
      "client",
      "project",
      "project_number",
      "issue_date",
      "expiration_date",
      "bond_amount",
      "current_amount",
      "currency",
      "collateral_held",
    ]);
    expect(table.rows).toHaveLength(8);
    expect(table.rows.every((r) => r.fields[5] === "Capacity Surety")).toBe(true);
    const numbers = table.rows.map((r) => r.fields[0]);
    expect(numbers).toEqual([...numbers].sort());

    const xlsx = await w.admin.request({ method: "GET", url: "/api/bonds/export?format=xlsx" });
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(book.getWorksheet("Bonds")!.rowCount).toBe(25);

    const schedule = await w.admin.request({ method: "GET", url: "/api/bonds/schedule.xlsx" });
    expect(schedule.statusCode).toBe(200);
    expect(schedule.headers["content-disposition"]).toMatch(/bond-schedule-/);
    const sbook = new ExcelJS.Workbook();
    await sbook.xlsx.load(schedule.rawPayload as unknown as ArrayBuffer);
    const sheet = sbook.getWorksheet("Bond Schedule")!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 4)).toEqual([
      "Surety Company",
      "Bond Number",
      "Guarantee Type",
      "Obligee (Agency)",
    ]);
    const open = await list(w.admin, "?page_size=1");
    const openCount = (
      await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from permits where company_id = ${w.companyId} and bond_status in ('active','reduced')`,
      )
    )[0]!.n;
    expect(sheet.rowCount).toBe(1 + openCount + 1);
    const last = sheet.getRow(sheet.rowCount).values as unknown[];
    expect(last[1]).toBe("Total");
    const currentCol = header.indexOf("Current Amount") + 1;
    expect(Math.round(Number(last[currentCol]) * 100)).toBe(
      Math.round(Number(open.summary.open_exposure) * 100),
    );
  });

  // Last: its bonds would change the counts the tests above check.
  it("counts a released or cancelled bond in no expiry, on this page as on All Permits (issue 25)", async () => {
    const soon = addDays(todayIn("UTC"), 12);
    const project = { project_id: w.seenProjectId, bond_amount: "5000", expiration_date: soon };
    const q = `?q=${encodeURIComponent("Soon Closing")}`;
    const ids = [];
    for (const name of ["Soon Closing Open", "Soon Closing Released", "Soon Closing Cancelled"])
      ids.push(await bond(w.admin, { ...project, permit_name: name }));
    await entry(ids[1]!, { kind: "release", effective_date: todayIn("UTC") });
    await entry(ids[2]!, { kind: "cancellation", effective_date: todayIn("UTC"), reason: "Void" });
    const page = await list(w.admin, `${q}&sort=permit_name`);
    expect(page.items.map((b) => [b.permit_name, b.status, b.urgency])).toEqual([
      ["Soon Closing Cancelled", "cancelled", null],
      ["Soon Closing Open", "active", "expiring"],
      ["Soon Closing Released", "released", null],
    ]);
    expect(page.summary.expiring_soon).toBe(1);
    const summary = (await w.admin.get(`/api/permits/summary${q}&record_type=bond`)).json();
    expect(summary).toMatchObject({ total: 3, expiring_soon: 1, closed: 2 });
    const tile = (await w.admin.get(`/api/permits${q}&tile=expiring_soon&group=none`)).json();
    expect(tile.items.map((p: { permit_name: string }) => p.permit_name)).toEqual(["Soon Closing Open"]);
  });
});
