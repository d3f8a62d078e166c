import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { permitContacts, sessions } from "../db/schema.ts";
import { useTestContext, type ApiClient } from "../test-support/harness.ts";
import { statementsOf, withinStatementBudget } from "../test-support/statements.ts";
import { useWorld } from "../test-support/world.ts";
import { requestHelpers } from "../test-support/document-requests.ts";
import { requestSenderIdle } from "../features/requests/sender-kick.ts";

/**
 * Statements per request on the hot routes (performance issue): one for who is asking, then what
 * the page's data needs, whatever the amount of data. A route over its budget fails with the
 * statements it sent, so an N+1 or a lookup one at a time shows at once.
 */
const t = useTestContext();
const w = useWorld(t, { permits: true });

const SESSION = /from "sessions"/;
const PEOPLE = ["admin", "user", "clientUser", "superAdmin"] as const;

/**
 * Enough related data that one query per row or per record would show: 60 permits, comments, audit,
 * contacts.
 */
async function fillProject() {
  const project = await t.make.project({ companyId: w.companyId, clientId: w.seenClientId });
  for (let i = 0; i < 60; i++) {
    await t.make.permit({
      companyId: w.companyId,
      clientId: w.seenClientId,
      projectId: project.id,
      responsibleUserId: w.userId,
    });
  }
  for (let i = 0; i < 12; i++) {
    const res = await w.admin.post(`/api/permits/${w.permitId}/comments`, {
      text: `Note ${i}`,
      isInternal: i % 3 === 0,
    });
    expect(res.statusCode).toBe(201);
  }
  // Issue 27: contacts the permit lists come in the detail's statement, not one query each.
  for (let i = 0; i < 6; i++) {
    const contact = await t.make.contact({ companyId: w.companyId, name: `Party ${i}`, phone: "555-0100" });
    await t.db
      .insert(permitContacts)
      .values({ companyId: w.companyId, permitId: w.permitId, contactId: contact.id });
  }
  return project.id;
}

describe("statements per request", () => {
  let projectId: string;
  let requestsPermitId: string;
  it("sets up a project of 60 permits and a permit with comments and audit entries", async () => {
    projectId = await fillProject();
    // Three document requests on the permit, one answered (its submission and files in the same read).
    const h = requestHelpers(t);
    requestsPermitId = (await t.make.permit({ companyId: w.companyId, clientId: w.seenClientId })).id;
    for (let i = 0; i < 3; i++) {
      const { token } = await h.ask(w.admin, requestsPermitId);
      if (i === 0) await h.answer(token);
    }
    // Their e-mails go out after the answers: done before any statement is counted.
    await requestSenderIdle(t.app);
  });

  const budgets: [string, () => string, number][] = [
    ["who is asking (/api/me)", () => "/api/me", 2],
    ["list, first page", () => "/api/permits", 2],
    ["list, name filter", () => "/api/permits?q=permit", 2],
    ["list, flat, 200 a page", () => "/api/permits?group=none&page_size=200", 2],
    // The tiles and what exists in scope whatever the filters (issue 25: the getting-started steps) together.
    ["summary tiles", () => "/api/permits/summary", 3],
    ["the Bonds page (tiles, breakdowns, what exists in scope, the first page)", () => "/api/bonds", 3],
    ["permit detail", () => `/api/permits/${w.permitId}`, 2],
    ["comments", () => `/api/permits/${w.permitId}/comments`, 2],
    ["audit trail", () => `/api/permits/${w.permitId}/audit`, 2],
    ["project dashboard", () => `/api/projects/${projectId}/dashboard`, 2],
    // Issue 27: the permit's document requests with their submissions and files, the visibility in it.
    ["document requests", () => `/api/permits/${requestsPermitId}/requests`, 2],
  ];
  for (const [name, url, budget] of budgets) {
    it(`${name}: at most ${budget} statements for every role, one of them for the session`, async () => {
      for (const who of PEOPLE) {
        const caller: ApiClient = w[who];
        const { result, statements } = await statementsOf(t.database, () => caller.get(url()));
        expect(result.statusCode, `${who} ${url()}: ${result.body}`).toBe(200);
        expect(
          statements.filter((s) => SESSION.test(s)),
          `${who}: session statements`,
        ).toHaveLength(1);
        await withinStatementBudget(t.database, budget, () => caller.get(url()));
      }
    });
  }

  it("the list's total comes with its page; a page past the end asks for it once more", async () => {
    const first = (await w.admin.get("/api/permits?group=none")).json();
    expect(first.total).toBeGreaterThan(60);
    expect(first.items).toHaveLength(Math.min(first.total, first.page_size));
    const past = await withinStatementBudget(t.database, 3, () =>
      w.admin.get("/api/permits?group=none&page=99"),
    );
    expect(past.json().items).toHaveLength(0);
    expect(past.json().total).toBe(first.total);
    const none = await withinStatementBudget(t.database, 2, () =>
      w.admin.get("/api/permits?q=no-such-permit-x"),
    );
    expect(none.json().total).toBe(0);
  });

  it("answers 404 in the same statements: the scope is in the one query", async () => {
    for (const url of [
      `/api/permits/${w.foreignPermitId}`,
      `/api/permits/${w.foreignPermitId}/comments`,
      `/api/permits/${w.foreignPermitId}/audit`,
      `/api/permits/${w.foreignPermitId}/requests`,
    ]) {
      const res = await withinStatementBudget(t.database, 2, () => w.admin.get(url));
      expect(res.statusCode).toBe(404);
    }
    for (const url of [`/api/permits/${w.hiddenPermitId}`, `/api/permits/${w.hiddenPermitId}/comments`]) {
      const hidden = await withinStatementBudget(t.database, 2, () => w.clientUser.get(url));
      expect(hidden.statusCode).toBe(404);
    }
  });

  it("the one-statement reads show what they showed before: the detail's related records and counts", async () => {
    const detail = (await w.clientUser.get(`/api/permits/${w.permitId}`)).json();
    expect(detail.client).toEqual({ id: w.seenClientId, name: "Seen Client" });
    expect(detail.company.name).toBe("Acme Builders");
    // The client-user counts only the comments it may read (8 of 12 are not internal).
    expect(detail.comment_count).toBe(8);
    expect((await w.admin.get(`/api/permits/${w.permitId}`)).json().comment_count).toBe(12);
    const comments = (await w.clientUser.get(`/api/permits/${w.permitId}/comments`)).json().comments;
    expect(comments.map((c: { text: string }) => c.text)).toEqual(
      Array.from({ length: 12 }, (_, i) => `Note ${i}`).filter((_, i) => i % 3 !== 0),
    );
    const audit = (await w.clientUser.get(`/api/permits/${w.permitId}/audit`)).json().entries;
    expect(audit).toHaveLength(8);
    expect((await w.admin.get(`/api/permits/${w.permitId}/audit`)).json().entries).toHaveLength(12);
    const dashboard = (await w.user.get(`/api/projects/${projectId}/dashboard`)).json();
    expect(dashboard.summary.total).toBe(60);
    expect(dashboard.permits).toHaveLength(60);
  });
});

describe.runIf(process.env.TEST_DB === "pg")(
  "query plans kept from one request to the next (PostgreSQL)",
  () => {
    /** The one statement that `url` sends ending with a page (LIMIT, OFFSET), as the app sent it. */
    async function pageStatement(caller: ApiClient, url: string) {
      const sent: { text: string; values: unknown[] }[] = [];
      const stop = t.database.observeStatements((text, params) => sent.push({ text, values: [...params] }));
      try {
        expect((await caller.get(url)).statusCode).toBe(200);
      } finally {
        stop();
      }
      const page = sent.filter((s) => /\slimit (\d+|\$\d+)( offset \$\d+)?$/.test(s.text));
      expect(page, sent.map((s) => s.text).join("\n")).toHaveLength(1);
      return page[0]!;
    }

    /** Runs `statement` prepared as the app's pool does, eight times on one connection: its plans. */
    async function plansOf(statement: { text: string; values: unknown[] }, name: string) {
      const client = await t.database.pool!.connect();
      try {
        for (let i = 0; i < 8; i++)
          await client.query({ name, text: statement.text, values: statement.values });
        const { rows } = await client.query<{ generic_plans: string; custom_plans: string }>(
          "select generic_plans, custom_plans from pg_prepared_statements where name = $1",
          [name],
        );
        await client.query(`deallocate ${name}`);
        return { generic: Number(rows[0]!.generic_plans), custom: Number(rows[0]!.custom_plans) };
      } finally {
        client.release();
      }
    }

    let prepared = 0;
    // A list statement planned at every run spent more on planning its joins than on running them.
    for (const [name, url] of [
      ["the permits list's first page", "/api/permits"],
      ["the permits list's first page, flat and filtered", "/api/permits?group=none&page_size=200&q=permit"],
      ["the bonds list's first page", "/api/bonds"],
    ] as const) {
      it(`${name} is run with a generic plan after five runs, not planned again each time`, async () => {
        const statement = await pageStatement(w.admin, url);
        expect(statement.text).toMatch(/\slimit \d+$/);
        const plans = await plansOf(statement, `t_first_page_${++prepared}`);
        expect(plans.generic, JSON.stringify(plans)).toBeGreaterThan(0);
        expect(plans.custom).toBeLessThanOrEqual(5);
      });
    }

    it("a later page passes its offset as a parameter: one text for every page", async () => {
      const second = await pageStatement(w.admin, "/api/permits?group=none&page_size=10&page=2");
      const third = await pageStatement(w.admin, "/api/permits?group=none&page_size=10&page=3");
      expect(second.text).toBe(third.text);
      expect(second.text).toMatch(/\slimit 10 offset \$\d+$/);
      expect(second.values.at(-1)).toBe(10);
      expect(third.values.at(-1)).toBe(20);
    });
  },
);

describe("writes: one load per write", () => {
  // Issue 30: 7 since the entry records its webhook event (bond.ledger_entry_added) in the same transaction (+1).
  it("a rider costs 7 statements in all (session, begin, the bond locked with its ledger, the entry with the bond's amount and its audit, its webhook event, commit, the ledger) and answers with the new state", async () => {
    const project = await t.make.project({ companyId: w.companyId, clientId: w.seenClientId });
    const created = await w.admin.post("/api/permits", {
      permit_number: "B-BUDGET",
      permit_name: "Budget bond",
      record_type: "bond",
      agency: "City of Springfield",
      issue_date: "2026-01-05",
      expiration_date: "2028-06-30",
      project_id: project.id,
      bond_amount: "100000",
      surety_company: "Acme Surety",
      guarantee_type: "Performance",
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const res = await withinStatementBudget(t.database, 7, () =>
      w.admin.post(`/api/bonds/${id}/ledger`, {
        kind: "rider",
        change: "25000",
        effective_date: "2026-02-01",
        reason: "Change order",
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ current_amount: "125000.00", status: "active" });
    expect(res.json().entries.map((e: { kind: string; change: string }) => [e.kind, e.change])).toEqual([
      ["original", "100000.00"],
      ["rider", "25000.00"],
    ]);
    // What the writer wrote in its one statement is all there: the bond's amount and the audit.
    const detail = (await w.admin.get(`/api/permits/${id}`)).json();
    expect(detail.current_amount).toBe("125000.00");
    const audit = (await w.admin.get(`/api/permits/${id}/audit`)).json();
    expect(JSON.stringify(audit)).toContain("125000.00");
  });
});

describe("who is asking, read fresh at every request", () => {
  it("refuses a session cookie whose signature was altered", async () => {
    const [name, value] = w.user.cookie.split("=") as [string, string];
    const decoded = decodeURIComponent(value);
    const forged = `${decoded.slice(0, decoded.lastIndexOf(".") + 1)}${Buffer.alloc(32, 7).toString("base64")}`;
    const res = await t.withCookie(`${name}=${encodeURIComponent(forged)}`).get("/api/me");
    expect(res.statusCode).toBe(401);
  });

  it("deletes an expired session and answers 401", async () => {
    const caller = await t.signIn({ email: (await userEmail(w.userId))!, password: "correct-horse-42" });
    const token = decodeURIComponent(caller.cookie.split("=")[1]!).split(".")[0]!;
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.token, token));
    expect((await caller.get("/api/me")).statusCode).toBe(401);
    expect(await t.db.select().from(sessions).where(eq(sessions.token, token))).toHaveLength(0);
  });

  it("extends a session older than a day by a week, once", async () => {
    const caller = await t.signIn({ email: (await userEmail(w.userId))!, password: "correct-horse-42" });
    const token = decodeURIComponent(caller.cookie.split("=")[1]!).split(".")[0]!;
    const inSixDays = new Date(Date.now() + 6 * 24 * 3600 * 1000 - 60_000);
    await t.db.update(sessions).set({ expiresAt: inSixDays }).where(eq(sessions.token, token));
    const first = await statementsOf(t.database, () => caller.get("/api/permits/summary"));
    expect(first.result.statusCode).toBe(200);
    expect(first.statements.filter((s) => /^update "sessions"/.test(s))).toHaveLength(1);
    const [row] = await t.db.select().from(sessions).where(eq(sessions.token, token));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 7 * 24 * 3600 * 1000 - 60_000);
    const second = await statementsOf(t.database, () => caller.get("/api/permits/summary"));
    expect(second.statements.filter((s) => /^update "sessions"/.test(s))).toHaveLength(0);
  });
});

async function userEmail(id: string) {
  const { users } = await import("../db/schema.ts");
  const [row] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, id));
  return row?.email;
}
