import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, companyPreferences, reminderDeliveries, userNotifications } from "../../db/schema.ts";
import { createTestContext, type TestContext } from "../../test-support/harness.ts";
import { startTestSmtp, type TestSmtp } from "../../test-support/test-smtp.ts";

let smtp: TestSmtp;
const t = {} as TestContext;
beforeAll(async () => {
  smtp = await startTestSmtp();
  Object.assign(t, await createTestContext({ SMTP_URL: smtp.url }));
});
afterAll(async () => {
  await t.close?.();
  await smtp?.close();
});

async function world() {
  const company = await t.make.company({ name: "Acme Builders" });
  const other = await t.make.company({ name: "Other Co" });
  const admin = await t.make.user({
    role: "company-admin",
    companyId: company.id,
    firstName: "Ada",
    lastName: "Admin",
  });
  const staff = await t.make.user({
    role: "company-user",
    companyId: company.id,
    firstName: "Sam",
    lastName: "Staff",
  });
  const client = await t.make.client(company.id);
  const clientUser = await t.make.user({
    role: "client-user",
    companyId: company.id,
    clientIds: [client.id],
  });
  const disabled = await t.make.user({ role: "company-user", companyId: company.id, banned: true });
  const otherAdmin = await t.make.user({ role: "company-admin", companyId: other.id });
  const superAdmin = await t.make.user({ role: "super-admin" });
  return { company, other, admin, staff, clientUser, disabled, otherAdmin, superAdmin };
}

const settingsUrl = (companyId?: string) =>
  `/api/notifications/settings${companyId ? `?company_id=${companyId}` : ""}`;
const allOn = { email30Day: true, email7Day: true, email1Day: true };

describe("GET /api/notifications/settings", () => {
  it("requires sign-in", async () => {
    expect((await t.anonymous.get(settingsUrl())).statusCode).toBe(401);
    expect((await t.anonymous.put(settingsUrl(), { ...allOn, recipientUserIds: [] })).statusCode).toBe(401);
    expect((await t.anonymous.get("/api/notifications/deliveries")).statusCode).toBe(401);
    expect((await t.anonymous.post("/api/notifications/test-email")).statusCode).toBe(401);
  });

  it("gives a company-admin its own company: all switches on without a preferences row, active staff as candidates", async () => {
    const w = await world();
    const res = await (await t.signIn(w.admin)).get(settingsUrl());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      companyId: w.company.id,
      companyName: "Acme Builders",
      ...allOn,
      can: { edit: true, sendTestEmail: true },
    });
    // client-users and disabled users are not offered: a digest lists every permit of the company
    expect(body.users.map((u: { id: string }) => u.id)).toEqual([w.admin.id, w.staff.id]);
    expect(body.users[0]).toEqual({
      id: w.admin.id,
      name: "Ada Admin",
      email: w.admin.email,
      role: "company-admin",
      receivesReminders: false,
    });
  });

  it("answers 404 for another company's settings, and 403 to company-users and client-users", async () => {
    const w = await world();
    const admin = await t.signIn(w.admin);
    expect((await admin.get(settingsUrl(w.other.id))).statusCode).toBe(404);
    expect((await admin.put(settingsUrl(w.other.id), { ...allOn, recipientUserIds: [] })).statusCode).toBe(
      404,
    );
    expect((await admin.get(`/api/notifications/deliveries?company_id=${w.other.id}`)).statusCode).toBe(404);
    expect((await admin.get(settingsUrl(w.company.id))).statusCode).toBe(200);
    for (const user of [w.staff, w.clientUser]) {
      const api = await t.signIn(user);
      for (const res of [
        await api.get(settingsUrl()),
        await api.put(settingsUrl(), { ...allOn, recipientUserIds: [] }),
        await api.get("/api/notifications/deliveries"),
        await api.post("/api/notifications/test-email"),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe("FORBIDDEN");
      }
    }
    const otherAdmin = await t.signIn(w.otherAdmin);
    expect((await otherAdmin.get(settingsUrl())).json().companyId).toBe(w.other.id);
  });

  it("lets a super-admin pick any company, and requires the pick", async () => {
    const w = await world();
    const api = await t.signIn(w.superAdmin);
    const missing = await api.get(settingsUrl());
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ company_id: "Company ID is missing. Please select a company." });
    expect((await api.get(settingsUrl(w.other.id))).json().companyName).toBe("Other Co");
    expect((await api.get(settingsUrl(t.make.uuid()))).statusCode).toBe(404);
    expect((await api.get(settingsUrl("not-a-uuid"))).statusCode).toBe(400);
  });
});

describe("PUT /api/notifications/settings", () => {
  it("saves the switches and replaces the recipients, audited", async () => {
    const w = await world();
    const api = await t.signIn(w.admin);
    const first = await api.put(settingsUrl(), {
      email30Day: false,
      email7Day: true,
      email1Day: true,
      recipientUserIds: [w.admin.id, w.staff.id],
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ email30Day: false, email7Day: true, email1Day: true });
    expect(first.json().users.map((u: { receivesReminders: boolean }) => u.receivesReminders)).toEqual([
      true,
      true,
    ]);

    const second = await api.put(settingsUrl(), {
      email30Day: false,
      email7Day: false,
      email1Day: true,
      recipientUserIds: [w.staff.id],
    });
    expect(second.json().users.map((u: { receivesReminders: boolean }) => u.receivesReminders)).toEqual([
      false,
      true,
    ]);
    const rows = await t.db
      .select()
      .from(userNotifications)
      .where(eq(userNotifications.companyId, w.company.id));
    expect(rows.map((r) => r.userId)).toEqual([w.staff.id]);
    const [prefs] = await t.db
      .select()
      .from(companyPreferences)
      .where(eq(companyPreferences.companyId, w.company.id));
    expect(prefs).toMatchObject({ email30Day: false, email7Day: false, email1Day: true });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, w.company.id));
    expect(events.map((e) => e.action)).toEqual([
      "notification_settings.update",
      "notification_settings.update",
    ]);
    expect(events[1]!.details).toMatchObject({
      before: {
        email30Day: false,
        email7Day: true,
        recipientUserIds: expect.arrayContaining([w.admin.id, w.staff.id]),
      },
      after: { email7Day: false, recipientUserIds: [w.staff.id] },
    });
  });

  it("lets a super-admin save another company's settings", async () => {
    const w = await world();
    const api = await t.signIn(w.superAdmin);
    const res = await api.put(settingsUrl(w.other.id), {
      ...allOn,
      email1Day: false,
      recipientUserIds: [w.otherAdmin.id],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ companyId: w.other.id, email1Day: false });
    expect((await api.put(settingsUrl(), { ...allOn, recipientUserIds: [] })).statusCode).toBe(400);
  });

  it("rejects bad input with field messages and changes nothing", async () => {
    const w = await world();
    const api = await t.signIn(w.admin);
    await api.put(settingsUrl(), { ...allOn, recipientUserIds: [w.admin.id] });
    const cases: [unknown, string][] = [
      [{ ...allOn, recipientUserIds: ["short-id"] }, "recipientUserIds.0"],
      [{ ...allOn, email30Day: "yes", recipientUserIds: [] }, "email30Day"],
      [{ email30Day: true, recipientUserIds: [] }, "email7Day"],
      [{ ...allOn, recipientUserIds: [w.admin.id, w.admin.id] }, "recipientUserIds"],
      // another company's user, a client-user and a disabled user cannot receive this company's digest
      [{ ...allOn, email30Day: false, recipientUserIds: [w.otherAdmin.id] }, "recipientUserIds"],
      [{ ...allOn, email30Day: false, recipientUserIds: [w.clientUser.id] }, "recipientUserIds"],
      [{ ...allOn, email30Day: false, recipientUserIds: [w.disabled.id] }, "recipientUserIds"],
    ];
    for (const [body, field] of cases) {
      const res = await api.put(settingsUrl(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields)).toContain(field);
    }
    const after = (await api.get(settingsUrl())).json();
    expect(after).toMatchObject(allOn);
    expect(
      after.users
        .filter((u: { receivesReminders: boolean }) => u.receivesReminders)
        .map((u: { id: string }) => u.id),
    ).toEqual([w.admin.id]);
  });
});

describe("Escalation Days and the Overdue digest (issue 11)", () => {
  it("default to 7 and on, save with the switches (audited), and stay as they are when left out", async () => {
    const w = await world();
    const api = await t.signIn(w.admin);
    expect((await api.get(settingsUrl())).json()).toMatchObject({ escalationDays: 7, overdueDigest: true });

    const saved = await api.put(settingsUrl(), {
      ...allOn,
      escalationDays: 14,
      overdueDigest: false,
      recipientUserIds: [],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ escalationDays: 14, overdueDigest: false });
    const [prefs] = await t.db
      .select()
      .from(companyPreferences)
      .where(eq(companyPreferences.companyId, w.company.id));
    expect(prefs).toMatchObject({ escalationDays: 14, overdueDigest: false });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, w.company.id));
    expect(events).toHaveLength(1);
    expect(events[0]?.details).toMatchObject({
      before: { escalationDays: 7, overdueDigest: true },
      after: { escalationDays: 14, overdueDigest: false },
    });

    // An older client sends only the switches and recipients: the two keep their values.
    await api.put(settingsUrl(), { ...allOn, email7Day: false, recipientUserIds: [] });
    expect((await api.get(settingsUrl())).json()).toMatchObject({
      email7Day: false,
      escalationDays: 14,
      overdueDigest: false,
    });
  });

  it("take 1 to 90 days only, for admins of the company only, changing nothing otherwise", async () => {
    const w = await world();
    const api = await t.signIn(w.admin);
    for (const escalationDays of [0, 91, 2.5, "7", null]) {
      const res = await api.put(settingsUrl(), { ...allOn, escalationDays, recipientUserIds: [] });
      expect(res.statusCode, String(escalationDays)).toBe(400);
      expect(res.json().fields.escalationDays).toBeDefined();
    }
    expect(
      (await api.put(settingsUrl(), { ...allOn, overdueDigest: "no", recipientUserIds: [] })).statusCode,
    ).toBe(400);
    for (const user of [w.staff, w.clientUser]) {
      const res = await (
        await t.signIn(user)
      ).put(settingsUrl(), {
        ...allOn,
        escalationDays: 3,
        recipientUserIds: [],
      });
      expect(res.statusCode).toBe(403);
    }
    const foreign = await (
      await t.signIn(w.otherAdmin)
    ).put(settingsUrl(w.company.id), {
      ...allOn,
      escalationDays: 3,
      recipientUserIds: [],
    });
    expect(foreign.statusCode).toBe(404);
    expect((await api.get(settingsUrl())).json()).toMatchObject({ escalationDays: 7, overdueDigest: true });
    // 1 and 90 are the bounds, both accepted.
    for (const escalationDays of [1, 90]) {
      const res = await api.put(settingsUrl(), { ...allOn, escalationDays, recipientUserIds: [] });
      expect(res.json().escalationDays).toBe(escalationDays);
    }
  });
});

describe("GET /api/notifications/deliveries", () => {
  it("lists the company's deliveries newest first, with their permits, and nothing of other companies", async () => {
    const w = await world();
    const p1 = await t.make.permit({
      companyId: w.company.id,
      permitName: "Older",
      expirationDate: "2040-01-30",
    });
    const p2 = await t.make.permit({
      companyId: w.company.id,
      permitName: "Newer",
      expirationDate: "2040-01-07",
    });
    const foreign = await t.make.permit({ companyId: w.other.id, expirationDate: "2040-01-07" });
    const base = { recipientUserId: w.admin.id, recipientEmail: w.admin.email, dueDate: "2040-01-01" };
    await t.db.insert(reminderDeliveries).values([
      {
        ...base,
        companyId: w.company.id,
        permitId: p1.id,
        threshold: 30,
        expirationDate: "2040-01-30",
        createdAt: new Date("2039-12-31T07:00:00Z"),
      },
      {
        ...base,
        companyId: w.company.id,
        permitId: p2.id,
        threshold: 7,
        expirationDate: "2040-01-07",
        status: "sent",
        sentAt: new Date("2040-01-01T07:00:05Z"),
        createdAt: new Date("2040-01-01T07:00:00Z"),
      },
      {
        ...base,
        recipientUserId: w.otherAdmin.id,
        companyId: w.other.id,
        permitId: foreign.id,
        threshold: 7,
        expirationDate: "2040-01-07",
      },
    ]);
    const res = await (await t.signIn(w.admin)).get("/api/notifications/deliveries?limit=10");
    expect(res.statusCode).toBe(200);
    expect(res.json().deliveries).toEqual([
      expect.objectContaining({
        threshold: 7,
        status: "sent",
        sentAt: "2040-01-01T07:00:05.000Z",
        permit: { id: p2.id, name: "Newer", number: p2.permitNumber },
      }),
      expect.objectContaining({
        threshold: 30,
        status: "pending",
        sentAt: null,
        attempts: 0,
        dueDate: "2040-01-01",
        expirationDate: "2040-01-30",
      }),
    ]);
    expect((await (await t.signIn(w.admin)).get("/api/notifications/deliveries?limit=0")).statusCode).toBe(
      400,
    );
  });
});

describe("POST /api/notifications/test-email", () => {
  it("sends a test e-mail to the signed-in admin through the real mailer", async () => {
    const w = await world();
    const res = await (await t.signIn(w.admin)).post("/api/notifications/test-email");
    expect(res.statusCode).toBe(200);
    expect(res.json().to).toBe(w.admin.email);
    const mail = smtp.messages.find((m) => m.to.includes(w.admin.email));
    expect(mail?.subject).toBe("Permitrack test e-mail");
    expect(mail?.messageId).toBe(res.json().messageId);
  });

  it("reports the mail server's refusal", async () => {
    const w = await world();
    smtp.failNext(1);
    const res = await (await t.signIn(w.admin)).post("/api/notifications/test-email");
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(
      /^The test e-mail could not be sent: .*Mailbox temporarily unavailable/,
    );
  });
});
