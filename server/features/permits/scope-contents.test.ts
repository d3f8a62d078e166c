import { describe, expect, it } from "vitest";
import { useTestContext, type ApiClient } from "../../test-support/harness.ts";
import { withinStatementBudget } from "../../test-support/statements.ts";
import type { BondList } from "../../../shared/schemas/bonds-page.ts";
import type { PermitSummary } from "../../../shared/schemas/permit-summary.ts";
import type { ScopeContents } from "../../../shared/schemas/scope-contents.ts";

/**
 * What exists within the actor's scope, whatever the filters (issue 25): the getting-started steps
 * of an empty platform or company and "nothing yet" against "nothing matches", in the permit
 * summary and the Bonds page, scoped to the actor's company and role. This file starts from an
 * empty database: no company, no user.
 */
const t = useTestContext();

const summaryOf = async (api: ApiClient, query = "") => {
  const res = await api.get(`/api/permits/summary${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PermitSummary;
};
const bondsOf = async (api: ApiClient, query = "") => {
  const res = await api.get(`/api/bonds${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as BondList;
};
/** The same answer from both endpoints. */
const inScope = async (api: ApiClient): Promise<ScopeContents> => {
  const [summary, bonds] = await Promise.all([summaryOf(api), bondsOf(api)]);
  expect(bonds.in_scope).toEqual(summary.in_scope);
  return summary.in_scope;
};
const steps = (company: boolean, clientAndProject: boolean, permits: boolean) => ({
  company,
  client_and_project: clientAndProject,
  permits,
});

describe("what exists in scope: the getting-started steps (issue 25)", () => {
  let superAdmin: ApiClient;
  let companyA: string;
  let companyB: string;
  let adminA: ApiClient;
  let userA: ApiClient;
  let adminB: ApiClient;

  it("answers 401 without a session, and changes nothing", async () => {
    expect((await t.anonymous.get("/api/permits/summary")).statusCode).toBe(401);
    expect((await t.anonymous.get("/api/bonds")).statusCode).toBe(401);
  });

  it("an empty platform: the super-admin has every step to do, and amounts still have a currency", async () => {
    superAdmin = await t.signIn(await t.make.user({ role: "super-admin" }));
    expect(await inScope(superAdmin)).toEqual({
      permits: false,
      bonds: false,
      getting_started: steps(false, false, false),
    });
    const bonds = await bondsOf(superAdmin);
    // No company, no bond: the default currency, never none (the page showed "0.00").
    expect(bonds.currency).toBe("USD");
    expect(bonds.summary.open_exposure).toBe("0.00");
    expect(bonds.totals_by_currency).toEqual([]);
  });

  it("ticks the company step once a company exists; a new company's staff see their company's steps", async () => {
    companyA = (await t.make.company({ name: "Alpha Works", currency: "EUR" })).id;
    companyB = (await t.make.company({ name: "Beta Build" })).id;
    adminA = await t.signIn(await t.make.user({ role: "company-admin", companyId: companyA }));
    userA = await t.signIn(await t.make.user({ role: "company-user", companyId: companyA }));
    adminB = await t.signIn(await t.make.user({ role: "company-admin", companyId: companyB }));
    expect((await inScope(superAdmin)).getting_started).toEqual(steps(true, false, false));
    for (const api of [adminA, userA, adminB])
      expect(await inScope(api)).toEqual({
        permits: false,
        bonds: false,
        getting_started: steps(true, false, false),
      });
    // A company's empty Bonds page speaks its currency.
    expect((await bondsOf(adminA)).currency).toBe("EUR");
    expect((await bondsOf(adminB)).currency).toBe("USD");
  });

  it("needs both a client and a project for step 2, each within the company", async () => {
    const client = await t.make.client(companyA, "Harbor Client");
    expect((await inScope(adminA)).getting_started).toEqual(steps(true, false, false));
    await t.make.project({ companyId: companyA, clientId: client.id });
    expect((await inScope(adminA)).getting_started).toEqual(steps(true, true, false));
    expect((await inScope(userA)).getting_started).toEqual(steps(true, true, false));
    // Another company's client and project tick nothing for company B.
    expect((await inScope(adminB)).getting_started).toEqual(steps(true, false, false));
    expect((await inScope(superAdmin)).getting_started).toEqual(steps(true, true, false));
  });

  it("ticks step 3 with any permit in scope (archived or N/A too), per company", async () => {
    await t.make.permit({ companyId: companyB, archived: true, status: "N/A" });
    const b = await inScope(adminB);
    expect(b).toEqual({ permits: true, bonds: false, getting_started: steps(true, false, true) });
    // The default list shows none of it (archived, N/A), yet it is not "nothing yet".
    expect((await summaryOf(adminB)).total).toBe(0);
    expect((await inScope(adminA)).permits).toBe(false);
    expect((await inScope(userA)).permits).toBe(false);
    expect((await inScope(superAdmin)).getting_started).toEqual(steps(true, true, true));
  });

  it("tells bonds apart: a permit is not a bond", async () => {
    await t.make.permit({ companyId: companyA });
    expect(await inScope(adminA)).toEqual({
      permits: true,
      bonds: false,
      getting_started: steps(true, true, true),
    });
    await t.make.permit({
      companyId: companyA,
      recordType: "bond",
      bondAmount: "1000.00",
      currentAmount: "1000.00",
      bondStatus: "active",
    });
    expect((await inScope(adminA)).bonds).toBe(true);
    expect((await inScope(adminB)).bonds).toBe(false);
    // Filters that leave nothing are "nothing matches": the scope still has bonds.
    const none = await bondsOf(adminA, "?q=no-such-bond");
    expect([none.total, none.in_scope.bonds]).toEqual([0, true]);
  });

  it("a client-user never gets the steps; its permits are its clients' only", async () => {
    const seen = await t.make.client(companyA, "Seen Client");
    const clientUser = await t.signIn(
      await t.make.user({ role: "client-user", companyId: companyA, clientIds: [seen.id] }),
    );
    // Company A has permits and a bond, none of this client's.
    expect(await inScope(clientUser)).toEqual({ permits: false, bonds: false, getting_started: null });
    await t.make.permit({ companyId: companyA, clientId: seen.id });
    expect(await inScope(clientUser)).toEqual({ permits: true, bonds: false, getting_started: null });
    const lonely = await t.signIn(await t.make.user({ role: "client-user", companyId: companyA }));
    expect(await inScope(lonely)).toEqual({ permits: false, bonds: false, getting_started: null });
  });

  it("shows a super-admin's totals per currency when the view spans currencies, and each breakdown row in its own", async () => {
    await t.make.permit({
      companyId: companyB,
      recordType: "bond",
      bondAmount: "250.00",
      currentAmount: "250.00",
      bondStatus: "active",
    });
    const all = await bondsOf(superAdmin);
    expect(all.currency).toBeNull();
    expect(all.totals_by_currency).toEqual([
      { currency: "EUR", open_exposure: "1000.00", collateral_held: "0.00" },
      { currency: "USD", open_exposure: "250.00", collateral_held: "0.00" },
    ]);
    // Bonds without a surety or client, one row per currency: no amount without its currency.
    expect(all.by_surety.map((r) => [r.name, r.currency, r.amount])).toEqual([
      ["No surety", "EUR", "1000.00"],
      ["No surety", "USD", "250.00"],
    ]);
    expect(all.by_client.map((r) => r.currency).sort()).toEqual(["EUR", "USD"]);
    const one = await bondsOf(superAdmin, `?company_id=${companyB}`);
    expect([one.currency, one.totals_by_currency]).toEqual(["USD", []]);
    expect((await bondsOf(adminA)).by_project.map((r) => r.currency)).toEqual(["EUR"]);
  });

  it("reads it within the statements the summary and the Bonds page already send", async () => {
    for (const api of [superAdmin, adminA, userA]) {
      await withinStatementBudget(t.database, 3, () => api.get("/api/permits/summary"));
      await withinStatementBudget(t.database, 3, () => api.get("/api/bonds"));
    }
  });
});
