import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import { formatDate } from "../../../shared/domain/format.ts";
import { auditEvents, companies, companyPreferences, users } from "../../db/schema.ts";
import { cookieHeaderOf, useTestContext, type ApiClient } from "../../test-support/harness.ts";
import { totpCode } from "../../test-support/totp.ts";
import { insertTask } from "../../test-support/reminder-fixtures.ts";
import { conditionTasks } from "../../db/schema.ts";
import { buildCalendar, escapeText, foldLine } from "./ics.ts";

const t = useTestContext({ PUBLIC_URL: "https://permits.example.com" });

interface Component {
  name: string;
  props: { name: string; params: string; value: string }[];
  children: Component[];
}

/** A small RFC 5545 reader for the assertions: unfolds lines and nests components. */
function parseIcs(text: string): Component {
  expect(text.endsWith("\r\n")).toBe(true);
  const physical = text.slice(0, -2).split("\r\n");
  for (const line of physical) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  const lines = text.slice(0, -2).replace(/\r\n /g, "").split("\r\n");
  const root: Component = { name: "ROOT", props: [], children: [] };
  const stack = [root];
  for (const line of lines) {
    const colon = line.indexOf(":");
    const [name, ...params] = line.slice(0, colon).split(";");
    const value = line.slice(colon + 1);
    if (name === "BEGIN") {
      const c: Component = { name: value, props: [], children: [] };
      stack.at(-1)!.children.push(c);
      stack.push(c);
    } else if (name === "END") {
      expect(stack.pop()!.name).toBe(value);
    } else {
      stack.at(-1)!.props.push({ name: name!, params: params.join(";"), value });
    }
  }
  expect(stack).toHaveLength(1);
  return root.children[0]!;
}
const prop = (c: Component, name: string) => c.props.find((p) => p.name === name)?.value;
const unescape = (v: string | undefined) => v?.replace(/\\n/g, "\n").replace(/\\([\\;,])/g, "$1");

describe("iCalendar writing", () => {
  it("escapes TEXT and folds long lines at 75 octets without splitting characters", () => {
    expect(escapeText("a,b;c\\d\ne")).toBe("a\\,b\\;c\\\\d\\ne");
    const long = `SUMMARY:${"Bauüberwachung ".repeat(12)}`;
    const folded = foldLine(long);
    for (const line of folded.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, "")).toBe(long);
    const ics = buildCalendar({ name: "X", description: "Y", events: [] });
    expect(parseIcs(ics).name).toBe("VCALENDAR");
  });
});

describe("calendar feed token", () => {
  it("requires sign-in", async () => {
    expect((await t.anonymous.get("/api/me/calendar-token")).statusCode).toBe(401);
    expect((await t.anonymous.post("/api/me/calendar-token")).statusCode).toBe(401);
    expect((await t.anonymous.delete("/api/me/calendar-token")).statusCode).toBe(401);
  });

  it("creates, rotates and revokes; stores only a hash; the old URL stops working", async () => {
    const company = await t.make.company();
    const user = await t.make.user({ role: "company-user", companyId: company.id });
    const api = await t.signIn(user);
    expect((await api.get("/api/me/calendar-token")).json()).toEqual({ active: false, url: null });

    const created = await api.post("/api/me/calendar-token");
    expect(created.statusCode).toBe(200);
    const url = created.json().url as string;
    expect(url).toMatch(/^https:\/\/permits\.example\.com\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const token = url.split("/").at(-1)!.replace(".ics", "");
    const [row] = await t.db
      .select({ calendarToken: users.calendarToken })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row!.calendarToken).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.calendarToken).not.toContain(token);
    expect((await api.get("/api/me/calendar-token")).json()).toEqual({ active: true, url: null });
    const path = new URL(url).pathname;
    expect((await t.anonymous.get(path)).statusCode).toBe(200);

    const rotated = (await api.post("/api/me/calendar-token")).json().url as string;
    expect(rotated).not.toBe(url);
    expect((await t.anonymous.get(path)).statusCode).toBe(404);
    expect((await t.anonymous.get(new URL(rotated).pathname)).statusCode).toBe(200);

    expect((await api.delete("/api/me/calendar-token")).json()).toEqual({ active: false, url: null });
    expect((await t.anonymous.get(new URL(rotated).pathname)).statusCode).toBe(404);
    const actions = (await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, user.id))).map(
      (e) => e.action,
    );
    expect(actions.sort()).toEqual(["calendar_feed.create", "calendar_feed.create", "calendar_feed.revoke"]);
  });

  it("answers 404 for unknown, malformed and disabled users' feeds", async () => {
    const company = await t.make.company();
    const user = await t.make.user({ companyId: company.id });
    const url = (await (await t.signIn(user)).post("/api/me/calendar-token")).json().url as string;
    expect((await t.anonymous.get(`/api/calendar/${"A".repeat(43)}.ics`)).statusCode).toBe(404);
    expect((await t.anonymous.get("/api/calendar/short.ics")).statusCode).toBe(404);
    expect((await t.anonymous.get(new URL(url).pathname.replace(".ics", ""))).statusCode).toBe(404);
    await t.db.update(users).set({ banned: true }).where(eq(users.id, user.id));
    expect((await t.anonymous.get(new URL(url).pathname)).statusCode).toBe(404);
  });
});

describe("GET /api/calendar/<token>.ics", () => {
  async function feedOf(user: { email: string; password: string }) {
    const url = (await (await t.signIn(user)).post("/api/me/calendar-token")).json().url as string;
    const res = await t.anonymous.get(new URL(url).pathname);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    return parseIcs(res.body);
  }

  it("carries each open task as an event: all-day on its date, timed at its instant; a done one drops out (issue 29)", async () => {
    const today = todayIn("UTC");
    const company = await t.make.company({ timeZone: "America/Denver" });
    const admin = await t.make.user({ role: "company-admin", companyId: company.id });
    const other = await t.make.company();
    const permit = await t.make.permit({
      companyId: company.id,
      permitNumber: "EC-7",
      expirationDate: addDays(today, 90),
    });
    // A permit without an expiration date still shows its tasks.
    const undated = await t.make.permit({ companyId: company.id, permitNumber: "UD-1", expirationDate: null });
    const dated = await insertTask(t.db, permit, { title: "Inspect, erosion controls", ownerUserId: admin.id, dueOn: addDays(today, 5) });
    const timed = await insertTask(t.db, undated, {
      title: "Inspect after rain",
      ownerUserId: admin.id,
      dueAt: new Date(`${addDays(today, 1)}T20:30:00Z`),
    });
    const done = await insertTask(t.db, permit, { title: "Done task", ownerUserId: admin.id, dueOn: addDays(today, 2) });
    await t.db
      .update(conditionTasks)
      .set({ status: "done", completedAt: new Date() })
      .where(eq(conditionTasks.id, done.taskId));
    const foreign = await t.make.permit({ companyId: other.id, expirationDate: addDays(today, 9) });
    await insertTask(t.db, foreign, { title: "Other company's", ownerUserId: null, dueOn: addDays(today, 3) });

    const events = (await feedOf(admin)).children.filter((c) => c.name === "VEVENT");
    const tasks = events.filter((e) => prop(e, "UID")!.startsWith("task-"));
    expect(tasks.map((e) => [prop(e, "UID"), unescape(prop(e, "SUMMARY"))]).sort()).toEqual(
      [
        [`task-${dated.taskId}@permits.example.com`, "Task due: Inspect, erosion controls (EC-7)"],
        [`task-${timed.taskId}@permits.example.com`, "Task due: Inspect after rain (UD-1)"],
      ].sort(),
    );
    const allDay = tasks.find((e) => prop(e, "UID")!.includes(dated.taskId))!;
    expect(allDay.props.find((p) => p.name === "DTSTART")).toMatchObject({
      params: "VALUE=DATE",
      value: addDays(today, 5).replaceAll("-", ""),
    });
    expect(prop(allDay, "URL")).toBe(`https://permits.example.com/permits/${permit.id}`);
    const atTime = tasks.find((e) => prop(e, "UID")!.includes(timed.taskId))!;
    expect(atTime.props.find((p) => p.name === "DTSTART")).toMatchObject({
      params: "",
      value: `${addDays(today, 1).replaceAll("-", "")}T203000Z`,
    });
    expect(prop(atTime, "DTEND")).toBeUndefined();
    // The expiry is still there; the undated permit has no expiry event.
    expect(events.filter((e) => prop(e, "UID") === `permit-${permit.id}@permits.example.com`)).toHaveLength(1);
    expect(events.filter((e) => prop(e, "UID") === `permit-${undated.id}@permits.example.com`)).toHaveLength(0);

    // Completing a task takes it out of the feed.
    await t.db
      .update(conditionTasks)
      .set({ status: "done", completedAt: new Date() })
      .where(eq(conditionTasks.id, dated.taskId));
    const after = (await feedOf(admin)).children.filter((c) => c.name === "VEVENT");
    expect(after.filter((e) => prop(e, "UID")!.startsWith("task-")).map((e) => prop(e, "UID"))).toEqual([
      `task-${timed.taskId}@permits.example.com`,
    ]);
  });

  it("lists the visible permits and bonds as all-day events with stable UIDs, escaped text and alarms at the company's thresholds", async () => {
    const today = todayIn("UTC");
    const company = await t.make.company({ name: "Acme, Inc." });
    await t.db
      .insert(companyPreferences)
      .values({ companyId: company.id, email30Day: true, email7Day: false, email1Day: true });
    const client = await t.make.client(company.id, "Front Range; Medical");
    const project = await t.make.project({
      companyId: company.id,
      clientId: client.id,
      name: "Clinic, Phase 2",
    });
    const permit = await t.make.permit({
      companyId: company.id,
      projectId: project.id,
      permitName: "Grading, Drainage; and\nErosion",
      permitNumber: "PRM-1",
      agency: "City of Denver",
      expirationDate: addDays(today, 20),
    });
    const bond = await t.make.permit({
      companyId: company.id,
      projectId: project.id,
      permitName: "Performance Bond",
      permitNumber: "BND-1",
      recordType: "bond",
      expirationDate: addDays(today, 3),
    });
    await t.make.permit({ companyId: company.id, expirationDate: addDays(today, 5), archived: true });
    await t.make.permit({ companyId: company.id, expirationDate: addDays(today, 5), status: "N/A" });
    await t.make.permit({ companyId: company.id, expirationDate: null });
    await t.make.permit({ companyId: (await t.make.company()).id, expirationDate: addDays(today, 5) });
    const user = await t.make.user({ role: "company-user", companyId: company.id });

    const cal = await feedOf(user);
    expect(prop(cal, "VERSION")).toBe("2.0");
    expect(unescape(prop(cal, "X-WR-CALNAME"))).toBe("Permitrack – Acme, Inc.");
    const events = cal.children.filter((c) => c.name === "VEVENT");
    expect(events.map((e) => prop(e, "UID"))).toEqual([
      `permit-${bond.id}@permits.example.com`,
      `permit-${permit.id}@permits.example.com`,
    ]);

    const e = events[1]!;
    const start = e.props.find((p) => p.name === "DTSTART")!;
    expect(start.params).toBe("VALUE=DATE");
    expect(start.value).toBe(addDays(today, 20).replaceAll("-", ""));
    expect(prop(e, "DTEND")).toBe(addDays(today, 21).replaceAll("-", ""));
    expect(prop(e, "SUMMARY")).toBe("Permit expires: Grading\\, Drainage\\; and\\nErosion (PRM-1)");
    expect(unescape(prop(e, "DESCRIPTION"))).toContain(
      "Project: Clinic, Phase 2\nClient: Front Range; Medical\nAgency: City of Denver",
    );
    expect(prop(e, "URL")).toBe(`https://permits.example.com/permits/${permit.id}`);
    expect(prop(e, "DTSTAMP")).toMatch(/^\d{8}T\d{6}Z$/);
    const alarms = e.children.filter((c) => c.name === "VALARM");
    expect(alarms.map((a) => prop(a, "TRIGGER"))).toEqual(["-P29DT15H", "-PT15H"]);
    expect(alarms.every((a) => prop(a, "ACTION") === "DISPLAY" && prop(a, "DESCRIPTION"))).toBe(true);
    expect(prop(events[0]!, "SUMMARY")).toBe("Bond / Guarantee expires: Performance Bond (BND-1)");

    // The same permit keeps its UID when its date moves.
    const again = (
      await t.anonymous.get(
        new URL((await (await t.signIn(user)).post("/api/me/calendar-token")).json().url).pathname,
      )
    ).body;
    expect(again).toContain(`UID:permit-${permit.id}@permits.example.com`);
  });

  it("gives a client-user only its clients' permits, and a super-admin every company's", async () => {
    const today = todayIn("UTC");
    const company = await t.make.company();
    const mine = await t.make.client(company.id);
    const theirs = await t.make.client(company.id);
    const visible = await t.make.permit({
      companyId: company.id,
      clientId: mine.id,
      expirationDate: addDays(today, 9),
    });
    const hidden = await t.make.permit({
      companyId: company.id,
      clientId: theirs.id,
      expirationDate: addDays(today, 9),
    });
    const unassigned = await t.make.permit({
      companyId: company.id,
      clientId: null,
      expirationDate: addDays(today, 9),
    });
    const clientUser = await t.make.user({
      role: "client-user",
      companyId: company.id,
      clientIds: [mine.id],
    });
    const uids = (c: Component) => c.children.filter((e) => e.name === "VEVENT").map((e) => prop(e, "UID"));
    expect(uids(await feedOf(clientUser))).toEqual([`permit-${visible.id}@permits.example.com`]);

    const superUids = uids(await feedOf(await t.make.user({ role: "super-admin" })));
    expect(superUids).toEqual(
      expect.arrayContaining([visible, hidden, unassigned].map((p) => `permit-${p.id}@permits.example.com`)),
    );
  });

  it("refuses to create a feed while a super-admin views the app as someone else", async () => {
    const company = await t.make.company();
    const target = await t.make.user({ companyId: company.id });
    const superAdmin = await t.signIn(await t.make.user({ role: "super-admin" }));
    const started = await superAdmin.post("/api/impersonation", { userId: target.id });
    expect(started.statusCode).toBe(200);
    // The start swaps the session cookie, as a browser would keep it.
    const jar = new Map(
      superAdmin.cookie
        .split("; ")
        .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
    );
    for (const c of started.cookies) jar.set(c.name, c.value);
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const me = await superAdmin.request({ method: "GET", url: "/api/me", headers: { cookie } });
    expect(me.json().id).toBe(target.id);
    const res = await superAdmin.request({
      method: "POST",
      url: "/api/me/calendar-token",
      headers: { cookie },
    });
    expect(res.statusCode).toBe(403);
    expect(
      (await superAdmin.request({ method: "DELETE", url: "/api/me/calendar-token", headers: { cookie } }))
        .statusCode,
    ).toBe(403);
  });
});

describe("a feed whose owner is held at the two-factor set-up gate (security finding 7)", () => {
  const GATED = "TWO_FACTOR_SETUP_REQUIRED";

  /** A company-user of a company not (yet) requiring two-factor sign-in, with a feed. */
  async function ownerWithFeed() {
    const company = await t.make.company();
    await t.make.permit({ companyId: company.id, expirationDate: addDays(todayIn("UTC"), 30) });
    const user = await t.make.user({ role: "company-user", companyId: company.id });
    const api = await t.signIn(user);
    const created = await api.post("/api/me/calendar-token");
    expect(created.statusCode).toBe(200);
    const path = new URL(created.json().url as string).pathname;
    expect((await t.anonymous.get(path)).statusCode).toBe(200);
    return { company, user, api, path };
  }
  const requireTwoFactor = (companyId: string, on: boolean) =>
    t.db.update(companies).set({ requireTwoFactor: on }).where(eq(companies.id, companyId));

  /** Enrols through the account routes; returns the client with the session better-auth renewed. */
  async function enrol(api: ApiClient, password: string): Promise<ApiClient> {
    const { manualKey } = (await api.post("/api/me/two-factor/enable", { password })).json();
    const res = await api.post("/api/me/two-factor/confirm", {
      code: await totpCode(manualKey, { fromManualKey: true }),
    });
    expect(res.statusCode).toBe(200);
    return t.withCookie(cookieHeaderOf(res));
  }

  it("answers 404, as for an unknown token, until the owner enrols; then serves again", async () => {
    const { company, user, api, path } = await ownerWithFeed();
    await requireTwoFactor(company.id, true);
    expect((await api.get("/api/permits")).json().code).toBe(GATED);

    const gated = await t.anonymous.get(path);
    const unknown = await t.anonymous.get(`/api/calendar/${"A".repeat(43)}.ics`);
    expect(gated.statusCode).toBe(404);
    expect(gated.body).toBe(unknown.body);
    // The owner still sees that the feed exists (the account page), and may not make a new one yet.
    expect((await api.get("/api/me/calendar-token")).json()).toEqual({ active: true, url: null });
    expect((await api.post("/api/me/calendar-token")).json().code).toBe(GATED);

    const enrolled = await enrol(api, user.password);
    expect((await enrolled.get("/api/permits")).statusCode).toBe(200);
    const served = await t.anonymous.get(path);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("text/calendar; charset=utf-8");
  });

  it("lets the gated owner revoke it, and the feed stays revoked once the company drops the rule", async () => {
    const { company, user, api, path } = await ownerWithFeed();
    await requireTwoFactor(company.id, true);
    expect((await t.anonymous.get(path)).statusCode).toBe(404);

    const revoked = await api.delete("/api/me/calendar-token");
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ active: false, url: null });
    expect((await api.get("/api/me/calendar-token")).json()).toEqual({ active: false, url: null });
    const [row] = await t.db
      .select({ calendarToken: users.calendarToken })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row!.calendarToken).toBeNull();
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, user.id));
    expect(events.map((e) => e.action)).toContain("calendar_feed.revoke");

    await requireTwoFactor(company.id, false);
    expect((await api.get("/api/permits")).statusCode).toBe(200);
    expect((await t.anonymous.get(path)).statusCode).toBe(404);
  });

  it("stops a super-admin's feed while the super-admin has no second factor (a lost phone's reset)", async () => {
    const sa = await t.make.user({ role: "super-admin" });
    const url = (await (await t.signIn(sa)).post("/api/me/calendar-token")).json().url as string;
    const path = new URL(url).pathname;
    expect((await t.anonymous.get(path)).statusCode).toBe(200);
    // A lost phone: the second factor is gone, and a super-admin must use one.
    await t.db.update(users).set({ twoFactorEnabled: false }).where(eq(users.id, sa.id));
    expect((await t.anonymous.get(path)).statusCode).toBe(404);
  });
});

describe("renew-by dates in the feed (issue 11)", () => {
  it("adds a 'Renew by' event carrying the alarms when a lead time is set, and leaves out closed permits", async () => {
    const today = todayIn("UTC");
    const company = await t.make.company();
    const lead = await t.make.permit({
      companyId: company.id,
      permitName: "Street Cut",
      permitNumber: "SC-1",
      expirationDate: addDays(today, 60),
      renewalLeadDays: 30,
    });
    await t.make.permit({ companyId: company.id, expirationDate: addDays(today, 10), closeDate: today });
    const user = await t.make.user({ role: "company-user", companyId: company.id });
    const url = (await (await t.signIn(user)).post("/api/me/calendar-token")).json().url as string;
    const cal = parseIcs((await t.anonymous.get(new URL(url).pathname)).body);
    const events = cal.children.filter((c) => c.name === "VEVENT");
    expect(events.map((e) => prop(e, "UID"))).toEqual([
      `permit-${lead.id}@permits.example.com`,
      `permit-${lead.id}-renew-by@permits.example.com`,
    ]);
    const renewBy = events[1]!;
    expect(prop(renewBy, "SUMMARY")).toBe("Renew by: Street Cut (SC-1)");
    expect(prop(renewBy, "DTSTART")).toBe(addDays(today, 30).replaceAll("-", ""));
    expect(renewBy.children.filter((c) => c.name === "VALARM")).toHaveLength(3);
    expect(events[0]!.children.filter((c) => c.name === "VALARM")).toHaveLength(0);
    expect(unescape(prop(events[0]!, "DESCRIPTION"))).toContain(`Renew by: ${formatDate(addDays(today, 30))}`);
  });
});
