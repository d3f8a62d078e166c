import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { permitAudit, permitInspections, permits, permitTerms, users } from "../../db/schema.ts";
import { useTestContext, type ApiClient } from "../../test-support/harness.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import type { PermitDetail } from "../../../shared/schemas/permit-detail.ts";
import type { PermitList, PermitListItem } from "../../../shared/schemas/permit-list.ts";
import type { PermitFormOptions } from "../../../shared/schemas/permit-options.ts";
import type { PermitSummary } from "../../../shared/schemas/permit-summary.ts";
import { RESPONSIBLE_NOT_STAFF } from "./permits.service.ts";

// The permit's lifecycle fields (issue 11) on the permits API: responsible person, expiry rule,
// renewal lead time and renew-by date, the current term kept in step with the form, the list's
// Responsible filter and Renewal Due tile, and the form's staff choices.

const t = useTestContext({ SIGNIN_IP_LIMIT: "100000", API_RATE_LIMIT: "100000" });

const ZONE = "Pacific/Kiritimati"; // UTC+14: "today" there is often not today in UTC
const today = () => todayIn(ZONE);

/** A company with a project, one user of each role (and a disabled one), and another company. */
async function world() {
  const company = await t.make.company({ timeZone: ZONE });
  const other = await t.make.company();
  const clientA = await t.make.client(company.id, "Acme Client");
  const clientB = await t.make.client(company.id, "Beta Client");
  const project = await t.make.project({ companyId: company.id, clientId: clientA.id, name: "Alpha" });
  const projectB = await t.make.project({ companyId: company.id, clientId: clientB.id, name: "Bravo" });
  const otherProject = await t.make.project({ companyId: other.id, name: "Theirs" });
  const mk = (role: "company-admin" | "company-user", firstName: string, lastName: string, banned = false) =>
    t.make.user({ role, companyId: company.id, firstName, lastName, banned });
  const adminUser = await mk("company-admin", "Ada", "Admin");
  const staffUser = await mk("company-user", "Sam", "Baker");
  const disabledUser = await mk("company-user", "Dee", "Disabled", true);
  const clientUserRow = await t.make.user({
    role: "client-user",
    companyId: company.id,
    clientIds: [clientA.id],
    firstName: "Cleo",
    lastName: "Client",
  });
  const otherAdminUser = await t.make.user({ role: "company-admin", companyId: other.id });
  const superAdminUser = await t.make.user({ role: "super-admin" });
  return {
    company,
    other,
    clientA,
    project,
    projectB,
    otherProject,
    adminUser,
    staffUser,
    disabledUser,
    clientUserRow,
    otherAdminUser,
    superAdminUser,
    admin: await t.signIn(adminUser),
    user: await t.signIn(staffUser),
    clientUser: await t.signIn(clientUserRow),
    otherAdmin: await t.signIn(otherAdminUser),
    superAdmin: await t.signIn(superAdminUser),
  };
}
type World = Awaited<ReturnType<typeof world>>;

const body = (w: World, over: Record<string, unknown> = {}) => ({
  permit_number: "BP-100",
  permit_name: "Building Permit",
  record_type: "permit",
  agency: "City",
  expiration_date: "2030-06-30",
  issue_date: "2026-01-05",
  start_date: "2026-01-01",
  project_id: w.project.id,
  ...over,
});

const create = async (w: World, over: Record<string, unknown> = {}, api: ApiClient = w.admin) => {
  const res = await api.post("/api/permits", body(w, over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as PermitDetail;
};
const detailOf = async (api: ApiClient, id: string) =>
  (await api.get(`/api/permits/${id}`)).json() as PermitDetail;
const rowOf = async (id: string) => (await t.db.select().from(permits).where(eq(permits.id, id)))[0]!;
const auditOf = (permitId: string, action = "update") =>
  t.db
    .select()
    .from(permitAudit)
    .where(and(eq(permitAudit.permitId, permitId), eq(permitAudit.action, action)))
    .orderBy(asc(permitAudit.field));
const termsOf = (permitId: string) =>
  t.db.select().from(permitTerms).where(eq(permitTerms.permitId, permitId)).orderBy(asc(permitTerms.seq));
const itemsOf = async (api: ApiClient, query = "") => {
  const res = await api.get(`/api/permits?group=none&show_non_required=1&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as PermitList).items;
};
const namesOf = async (api: ApiClient, query = "") =>
  (await itemsOf(api, query)).map((p: PermitListItem) => p.permit_name).sort();
const summaryOf = async (api: ApiClient, query = "") =>
  (await api.get(`/api/permits/summary?show_non_required=1&${query}`)).json() as PermitSummary;

describe("Responsible Person", () => {
  it("saves an active staff user of the permit's company, shows them on the detail and the list, and audits changes", async () => {
    const w = await world();
    const made = await create(w, { responsible_user_id: w.staffUser.id });
    expect(made.responsible).toEqual({ id: w.staffUser.id, name: "Sam Baker" });
    expect((await rowOf(made.id)).responsibleUserId).toBe(w.staffUser.id);

    const changed = await w.user.put(
      `/api/permits/${made.id}`,
      body(w, { responsible_user_id: w.adminUser.id }),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().responsible).toEqual({ id: w.adminUser.id, name: "Ada Admin" });
    const cleared = await w.user.put(`/api/permits/${made.id}`, body(w, { responsible_user_id: "" }));
    expect(cleared.json().responsible).toBeNull();
    expect((await auditOf(made.id)).map((a) => [a.field, a.oldValue, a.newValue])).toEqual([
      ["responsible_user_id", w.staffUser.id, w.adminUser.id],
      ["responsible_user_id", w.adminUser.id, null],
    ]);

    await w.user.put(`/api/permits/${made.id}`, body(w, { responsible_user_id: w.staffUser.id }));
    // A client-user of the permit's client reads who is responsible, like the rest of the permit.
    expect((await detailOf(w.clientUser, made.id)).responsible).toEqual({
      id: w.staffUser.id,
      name: "Sam Baker",
    });
    const [item] = await itemsOf(w.clientUser);
    expect(item?.responsible).toEqual({ id: w.staffUser.id, name: "Sam Baker" });
  });

  it("refuses anyone but active staff of the company with a 400 on the field, writing nothing", async () => {
    const w = await world();
    const permit = await create(w, { responsible_user_id: w.staffUser.id });
    const outsiders = [
      w.otherAdminUser.id, // another company's admin
      w.clientUserRow.id, // the company's own client-user
      w.disabledUser.id, // disabled staff
      w.superAdminUser.id, // belongs to no company
      t.make.uuid(), // nobody
    ];
    for (const id of outsiders) {
      const created = await w.admin.post(
        "/api/permits",
        body(w, { permit_number: "X-1", responsible_user_id: id }),
      );
      expect(created.statusCode, id).toBe(400);
      expect(created.json().fields).toEqual({ responsible_user_id: RESPONSIBLE_NOT_STAFF });
      const updated = await w.admin.put(`/api/permits/${permit.id}`, body(w, { responsible_user_id: id }));
      expect(updated.statusCode, id).toBe(400);
      expect(updated.json().fields.responsible_user_id).toBe(RESPONSIBLE_NOT_STAFF);
    }
    const malformed = await w.admin.put(`/api/permits/${permit.id}`, body(w, { responsible_user_id: "sam" }));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields.responsible_user_id).toBe("Must be a valid id");
    expect((await rowOf(permit.id)).responsibleUserId).toBe(w.staffUser.id);
    expect(await auditOf(permit.id)).toEqual([]);
    const numbers = await t.db.select().from(permits).where(eq(permits.companyId, w.company.id));
    expect(numbers.map((p) => p.permitNumber)).toEqual(["BP-100"]);
  });

  it("never lets a client-user set anything (403), and hides other companies' permits (404)", async () => {
    const w = await world();
    const permit = await create(w);
    const put = await w.clientUser.put(
      `/api/permits/${permit.id}`,
      body(w, { responsible_user_id: w.staffUser.id, expiry_rule: "after_inspection", expiry_days: 5 }),
    );
    expect(put.statusCode).toBe(403);
    expect(
      (await w.clientUser.post("/api/permits", body(w, { responsible_user_id: w.staffUser.id }))).statusCode,
    ).toBe(403);
    expect(await rowOf(permit.id)).toMatchObject({
      responsibleUserId: null,
      expiryRule: "fixed",
      expiryDays: null,
    });
    const foreign = await w.otherAdmin.put(
      `/api/permits/${permit.id}`,
      body(w, { responsible_user_id: w.otherAdminUser.id }),
    );
    expect(foreign.statusCode).toBe(404);
  });

  it("keeps a person disabled since until someone picks another; a move to another company checks again and takes the terms along", async () => {
    const w = await world();
    const permit = await create(w, { responsible_user_id: w.staffUser.id });
    await t.db.update(users).set({ banned: true }).where(eq(users.id, w.staffUser.id));
    const edit = await w.admin.put(
      `/api/permits/${permit.id}`,
      body(w, { responsible_user_id: w.staffUser.id, permit_name: "Renamed" }),
    );
    expect(edit.statusCode, edit.body).toBe(200);
    expect(
      (await w.admin.put(`/api/permits/${permit.id}`, body(w, { responsible_user_id: w.adminUser.id })))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await w.admin.put(`/api/permits/${permit.id}`, body(w, { responsible_user_id: w.staffUser.id }))
      ).json().fields,
    ).toEqual({ responsible_user_id: RESPONSIBLE_NOT_STAFF });

    await w.admin.post(`/api/permits/${permit.id}/inspections`, {
      inspection_type: "Footing",
      date: today(),
      result: "Passed",
    });
    const move = (responsible: string) =>
      w.superAdmin.put(
        `/api/permits/${permit.id}`,
        body(w, { company_id: w.other.id, project_id: w.otherProject.id, responsible_user_id: responsible }),
      );
    const refused = await move(w.adminUser.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.responsible_user_id).toBe(RESPONSIBLE_NOT_STAFF);
    const moved = await move(w.otherAdminUser.id);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ company_id: w.other.id, responsible: { id: w.otherAdminUser.id } });
    expect((await termsOf(permit.id)).map((r) => r.companyId)).toEqual([w.other.id]);
    const inspections = await t.db
      .select()
      .from(permitInspections)
      .where(eq(permitInspections.permitId, permit.id));
    expect(inspections.map((r) => r.companyId)).toEqual([w.other.id]);
  });
});

describe("Expiry Rule and Renewal Lead Time", () => {
  it("saves the rule, its days and the lead time, with the renew-by date, the term and no acknowledgement yet", async () => {
    const w = await world();
    const made = await create(w, {
      expiry_rule: "after_inspection",
      expiry_days: "180",
      renewal_lead_days: 30,
      expiration_date: "2030-06-30",
    });
    expect(made).toMatchObject({
      expiry_rule: "after_inspection",
      expiry_days: 180,
      renewal_lead_days: 30,
      renew_by_date: "2030-05-31",
      term_no: 1,
      acknowledged: null,
      final_status: null,
    });
    // A fixed date keeps no days, whatever the form left in the days box.
    const fixed = await w.user.put(
      `/api/permits/${made.id}`,
      body(w, { expiry_rule: "fixed", expiry_days: 180, renewal_lead_days: "" }),
    );
    expect(fixed.json()).toMatchObject({
      expiry_rule: "fixed",
      expiry_days: null,
      renewal_lead_days: null,
      renew_by_date: null,
    });
    expect((await auditOf(made.id)).map((a) => [a.field, a.oldValue, a.newValue])).toEqual([
      ["expiry_days", "180", null],
      ["expiry_rule", "after_inspection", "fixed"],
      ["renewal_lead_days", "30", null],
    ]);
    // Without the fields (an older client) a permit is 'Fixed date' without a lead time.
    const plain = await create(w, { permit_number: "BP-2" });
    expect(plain).toMatchObject({
      expiry_rule: "fixed",
      expiry_days: null,
      renewal_lead_days: null,
      renew_by_date: null,
    });
    // A lead time of 0 is a renew-by date on the expiry itself.
    const zero = await w.user.put(
      `/api/permits/${plain.id}`,
      body(w, { permit_number: "BP-2", renewal_lead_days: 0 }),
    );
    expect(zero.json()).toMatchObject({ renewal_lead_days: 0, renew_by_date: "2030-06-30" });
  });

  it("answers 400 with field messages for missing or out-of-range days and lead times, writing nothing", async () => {
    const w = await world();
    const permit = await create(w);
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ expiry_rule: "after_inspection" }, "expiry_days", "Days is required"],
      [{ expiry_rule: "after_inspection", expiry_days: "" }, "expiry_days", "Days is required"],
      [{ expiry_rule: "after_inspection", expiry_days: null }, "expiry_days", "Days is required"],
      [
        { expiry_rule: "after_inspection", expiry_days: 0 },
        "expiry_days",
        "Days must be a whole number from 1 to 3650",
      ],
      [{ expiry_rule: "after_inspection", expiry_days: 3651 }, "expiry_days"],
      [{ expiry_rule: "after_inspection", expiry_days: 1.5 }, "expiry_days"],
      [{ expiry_rule: "after_inspection", expiry_days: "ten" }, "expiry_days"],
      [
        { renewal_lead_days: 366 },
        "renewal_lead_days",
        "Renewal Lead Time must be a whole number from 0 to 365",
      ],
      [{ renewal_lead_days: -1 }, "renewal_lead_days"],
      [{ expiry_rule: "yearly" }, "expiry_rule"],
    ];
    for (const [extra, field, message] of cases) {
      for (const res of [
        await w.admin.post("/api/permits", body(w, { permit_number: "NEW", ...extra })),
        await w.admin.put(`/api/permits/${permit.id}`, body(w, extra)),
      ]) {
        expect(res.statusCode, JSON.stringify(extra)).toBe(400);
        if (message) expect(res.json().fields[field]).toBe(message);
        else expect(res.json().fields[field], JSON.stringify(extra)).toBeDefined();
      }
    }
    // The bounds themselves are fine.
    const bounds = await w.admin.put(
      `/api/permits/${permit.id}`,
      body(w, { expiry_rule: "after_inspection", expiry_days: 3650, renewal_lead_days: 365 }),
    );
    expect(bounds.statusCode, bounds.body).toBe(200);
    expect((await t.db.select().from(permits).where(eq(permits.companyId, w.company.id))).length).toBe(1);
  });
});

describe("the current term follows the form's corrections", () => {
  it("corrects the original term's number and dates", async () => {
    const w = await world();
    const permit = await create(w);
    const res = await w.user.put(
      `/api/permits/${permit.id}`,
      body(w, { permit_number: "BP-100A", issue_date: "2026-01-06", expiration_date: "2030-07-01" }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const [original] = await termsOf(permit.id);
    expect(original).toMatchObject({
      kind: "original",
      termNo: 1,
      permitNumber: "BP-100A",
      issueDate: "2026-01-06",
      expirationDate: "2030-07-01",
    });
    const lifecycle = (await w.user.get(`/api/permits/${permit.id}/lifecycle`)).json();
    expect(lifecycle.terms).toMatchObject([{ permit_number: "BP-100A", expiration_date: "2030-07-01" }]);
  });

  it("corrects the latest row of the current term only: an extension, then a renewal's new term", async () => {
    const w = await world();
    const permit = await create(w, { expiration_date: "2030-06-30" });
    const ext = await w.user.post(`/api/permits/${permit.id}/extensions`, {
      new_expiration_date: "2030-09-30",
      reason: "Agency backlog",
    });
    expect(ext.statusCode, ext.body).toBe(200);
    await w.user.put(`/api/permits/${permit.id}`, body(w, { expiration_date: "2030-10-01" }));
    expect((await termsOf(permit.id)).map((r) => [r.kind, r.termNo, r.expirationDate])).toEqual([
      ["original", 1, "2030-06-30"],
      ["extension", 1, "2030-10-01"],
    ]);

    const renewal = await w.user.post(`/api/permits/${permit.id}/renewals`, {
      new_expiration_date: "2032-06-30",
      new_permit_number: "BP-200",
    });
    expect(renewal.statusCode, renewal.body).toBe(200);
    const renewed = await detailOf(w.user, permit.id);
    expect(renewed).toMatchObject({ term_no: 2, permit_number: "BP-200", expiration_date: "2032-06-30" });
    await w.user.put(
      `/api/permits/${permit.id}`,
      body(w, { permit_number: "BP-201", expiration_date: "2032-07-01", issue_date: renewed.issue_date }),
    );
    expect(
      (await termsOf(permit.id)).map((r) => [r.kind, r.termNo, r.permitNumber, r.expirationDate]),
    ).toEqual([
      ["original", 1, "BP-100", "2030-06-30"],
      ["extension", 1, "BP-100", "2030-10-01"],
      ["renewal", 2, "BP-201", "2032-07-01"],
    ]);
    // A change of other fields leaves the terms alone.
    const before = await termsOf(permit.id);
    await w.user.put(
      `/api/permits/${permit.id}`,
      body(w, {
        permit_number: "BP-201",
        expiration_date: "2032-07-01",
        issue_date: renewed.issue_date,
        permit_name: "X",
      }),
    );
    expect(await termsOf(permit.id)).toEqual(before);
  });
});

describe("the list: responsible, renew-by and acknowledgement", () => {
  it("gives each row its responsible person, renew-by date and acknowledgement", async () => {
    const w = await world();
    const a = await create(w, {
      permit_name: "A",
      responsible_user_id: w.staffUser.id,
      renewal_lead_days: 60,
      expiration_date: addDays(today(), 90),
    });
    await create(w, { permit_number: "B", permit_name: "B" });
    const ack = await w.user.post(`/api/permits/${a.id}/acknowledgement`, {});
    expect(ack.statusCode, ack.body).toBe(200);
    const items = await itemsOf(w.admin, "sort=permit_name");
    expect(
      items.map((i) => [i.permit_name, i.responsible, i.renew_by_date, i.acknowledged?.by ?? null]),
    ).toEqual([
      ["A", { id: w.staffUser.id, name: "Sam Baker" }, addDays(today(), 30), "Sam Baker"],
      ["B", null, null, null],
    ]);
    expect(new Date(items[0]!.acknowledged!.at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const detail = await detailOf(w.clientUser, a.id);
    expect(detail.acknowledged?.by).toBe("Sam Baker");
    // Grouped by client and project, the rows carry the same fields.
    const grouped = (await (await w.admin.get("/api/permits")).json()) as PermitList;
    expect(grouped.groups[0]?.projects[0]?.permits.find((p) => p.id === a.id)?.responsible?.name).toBe(
      "Sam Baker",
    );
  });

  it("filters by Responsible: 'me' or a user id, exactly the right rows, within the actor's scope", async () => {
    const w = await world();
    await create(w, { permit_number: "1", permit_name: "Sam's", responsible_user_id: w.staffUser.id });
    await create(w, {
      permit_number: "2",
      permit_name: "Sam's on B",
      responsible_user_id: w.staffUser.id,
      project_id: w.projectB.id,
    });
    await create(w, { permit_number: "3", permit_name: "Ada's", responsible_user_id: w.adminUser.id });
    await create(w, { permit_number: "4", permit_name: "Nobody's" });
    await t.make.permit({
      companyId: w.other.id,
      permitName: "Theirs",
      responsibleUserId: w.otherAdminUser.id,
    });

    expect(await namesOf(w.user, "responsible=me")).toEqual(["Sam's", "Sam's on B"]);
    expect(await namesOf(w.admin, "responsible=me")).toEqual(["Ada's"]);
    expect(await namesOf(w.admin, `responsible=${w.staffUser.id}`)).toEqual(["Sam's", "Sam's on B"]);
    expect(await namesOf(w.admin, `responsible=${w.otherAdminUser.id}`)).toEqual([]);
    expect(await namesOf(w.otherAdmin, "responsible=me")).toEqual(["Theirs"]);
    // A client-user is nobody's responsible person, and sees only its clients' permits.
    expect(await namesOf(w.clientUser, "responsible=me")).toEqual([]);
    expect(await namesOf(w.clientUser, `responsible=${w.staffUser.id}`)).toEqual(["Sam's"]);
    // The summary counts over the same filter.
    expect((await summaryOf(w.user, "responsible=me")).total).toBe(2);
    expect((await summaryOf(w.admin, `responsible=${w.adminUser.id}`)).total).toBe(1);
    for (const bad of ["someone", "12"]) {
      const res = await w.admin.get(`/api/permits?responsible=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.responsible).toBe("Must be a user id or me");
    }
  });

  it("shows and counts Renewal Due: renew-by within 30 days or passed, not closed, not yet renewed", async () => {
    const w = await world();
    const make = (
      permitName: string,
      expiresIn: number,
      lead: number | null,
      over: Record<string, unknown> = {},
    ) =>
      t.make.permit({
        companyId: w.company.id,
        projectId: w.project.id,
        permitName,
        expirationDate: addDays(today(), expiresIn),
        renewalLeadDays: lead,
        ...over,
      });
    await make("passed", 10, 30); // renew-by 20 days ago
    await make("today", 30, 30); // renew-by today
    await make("in 30 days", 90, 60); // renew-by in 30 days: the window's last day
    await make("in 31 days", 91, 60);
    await make("no lead time", 5, null);
    await make("expired long ago", -400, 10);
    await make("closed", 10, 30, { closeDate: today(), finalStatus: "Finaled" });
    await make("archived", 10, 30, { archived: true });
    const renewed = await make("renewed", 10, 30);
    await t.make.permit({
      companyId: w.other.id,
      permitName: "other company",
      expirationDate: addDays(today(), 10),
      renewalLeadDays: 30,
    });
    const res = await w.admin.post(`/api/permits/${renewed.id}/renewals`, {
      new_expiration_date: addDays(today(), 400),
    });
    expect(res.statusCode, res.body).toBe(200);

    const due = ["expired long ago", "in 30 days", "passed", "today"];
    expect(await namesOf(w.admin, "tile=renewal_due")).toEqual(due);
    expect((await summaryOf(w.admin)).renewal_due).toBe(4);
    expect(await namesOf(w.admin, "tile=renewal_due&show_archived=1")).toEqual(["archived", ...due].sort());
    expect((await summaryOf(w.otherAdmin)).renewal_due).toBe(1);
    // The tile's count ignores the chosen tile (every tile counts), but not the other filters.
    expect((await summaryOf(w.admin, "q=passed")).renewal_due).toBe(1);
  });

  it("sorts by the renew-by date both ways, permits without one last", async () => {
    const w = await world();
    for (const [permitName, lead] of [
      ["late", 1],
      ["none", null],
      ["early", 100],
    ] as const) {
      await t.make.permit({
        companyId: w.company.id,
        projectId: w.project.id,
        permitName,
        expirationDate: "2030-06-30",
        renewalLeadDays: lead,
      });
    }
    const order = async (dir: string) =>
      (await itemsOf(w.admin, `sort=renew_by_date&dir=${dir}`)).map((i) => i.permit_name);
    expect(await order("asc")).toEqual(["early", "late", "none"]);
    expect(await order("desc")).toEqual(["late", "early", "none"]);
  });
});

describe("GET /api/permits/filter-options: the Responsible filter's choices", () => {
  it("lists who is responsible for permits the actor can see, and offers 'Me' to staff only", async () => {
    const w = await world();
    await create(w, { permit_number: "1", responsible_user_id: w.staffUser.id });
    await create(w, { permit_number: "2", responsible_user_id: w.adminUser.id, project_id: w.projectB.id });
    await create(w, { permit_number: "3", responsible_user_id: w.staffUser.id });
    await t.make.permit({ companyId: w.other.id, responsibleUserId: w.otherAdminUser.id });
    const admin = (await w.admin.get("/api/permits/filter-options")).json();
    expect(admin.responsible).toEqual([
      { id: w.adminUser.id, name: "Ada Admin", company_name: null },
      { id: w.staffUser.id, name: "Sam Baker", company_name: null },
    ]);
    expect(admin.can_be_responsible).toBe(true);
    // A client-user sees the people of its clients' permits only, and is nobody's responsible person.
    const client = (await w.clientUser.get("/api/permits/filter-options")).json();
    expect(client.responsible.map((u: { id: string }) => u.id)).toEqual([w.staffUser.id]);
    expect(client.can_be_responsible).toBe(false);
    // A super-admin sees every company's, each named with its company.
    const all = (await w.superAdmin.get("/api/permits/filter-options")).json();
    expect(all.responsible).toEqual(
      expect.arrayContaining([
        { id: w.otherAdminUser.id, name: expect.any(String), company_name: w.other.name },
        { id: w.staffUser.id, name: "Sam Baker", company_name: w.company.name },
      ]),
    );
    expect(all.can_be_responsible).toBe(false);
  });
});

describe("GET /api/permits/form-options: Responsible Person choices", () => {
  it("offers the company's active staff by name, never client-users, disabled users or other companies", async () => {
    const w = await world();
    const staff = (await w.user.get("/api/permits/form-options")).json() as PermitFormOptions;
    expect(staff.staff).toEqual([
      { id: w.adminUser.id, name: "Ada Admin" },
      { id: w.staffUser.id, name: "Sam Baker" },
    ]);
    const asSuper = (await w.superAdmin.get(`/api/permits/form-options?company_id=${w.other.id}`)).json();
    expect(asSuper.staff.map((u: { id: string }) => u.id)).toEqual([w.otherAdminUser.id]);
    expect((await w.superAdmin.get("/api/permits/form-options")).json().staff).toEqual([]);
    // A company-admin naming another company still gets its own.
    const named = (await w.admin.get(`/api/permits/form-options?company_id=${w.other.id}`)).json();
    expect(named.staff.map((u: { id: string }) => u.id)).toEqual([w.adminUser.id, w.staffUser.id]);
    expect((await w.clientUser.get("/api/permits/form-options")).statusCode).toBe(403);
  });
});
