import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, sessions, userClients, userNotifications, users } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";

const t = useTestContext();

const w = useWorld(t, {}, async (w) => ({
  otherUserId: (await t.make.user({ role: "company-user", companyId: w.otherCompanyId })).id,
}));

let n = 0;
const newUser = (over: Record<string, unknown> = {}) => ({
  email: `new.person${++n}@example.com`,
  firstName: "New",
  lastName: `Person ${n}`,
  companyId: w.companyId,
  phone: "555-0101",
  title: "Engineer",
  role: "company-user",
  password: "a-good-password",
  ...over,
});
const edit = (
  u: { firstName: string; lastName: string; role: string; companyId: string | null },
  over: Record<string, unknown> = {},
) => ({
  firstName: u.firstName,
  lastName: u.lastName,
  companyId: u.companyId,
  phone: "",
  title: "",
  role: u.role,
  ...over,
});
const rowOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0];

describe("every user route", () => {
  it("requires sign-in", async () => {
    const id = w.otherUserId;
    for (const res of [
      await t.anonymous.get("/api/users"),
      await t.anonymous.post("/api/users", newUser()),
      await t.anonymous.get(`/api/users/${id}`),
      await t.anonymous.put(`/api/users/${id}`, {}),
      await t.anonymous.delete(`/api/users/${id}`),
      await t.anonymous.put(`/api/users/${id}/clients`, { clientIds: [] }),
      await t.anonymous.post(`/api/users/${id}/disable`),
      await t.anonymous.post(`/api/users/${id}/enable`),
    ]) {
      expect(res.statusCode).toBe(401);
    }
  });

  it("refuses company-users and client-users everything (403 with the spec's message)", async () => {
    const id = w.adminId;
    for (const api of [w.user, w.clientUser]) {
      for (const res of [
        await api.get("/api/users"),
        await api.post("/api/users", newUser()),
        await api.get(`/api/users/${id}`),
        await api.put(
          `/api/users/${id}`,
          edit({ firstName: "X", lastName: "Y", role: "company-user", companyId: w.companyId }),
        ),
        await api.delete(`/api/users/${id}`),
        await api.put(`/api/users/${id}/clients`, { clientIds: [] }),
        await api.post(`/api/users/${id}/disable`),
        await api.post(`/api/users/${id}/enable`),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe("Permission denied. Please check your access rights.");
      }
    }
    expect((await rowOf(w.adminId))!.banned).toBe(false);
  });
});

describe("a company-admin", () => {
  it("lists its own company's users only, never a super-admin, with what it may do", async () => {
    const res = await w.admin.get(`/api/users?companyId=${w.otherCompanyId}`);
    expect(res.statusCode).toBe(200);
    const list = res.json().users as {
      id: string;
      companyId: string;
      role: string;
      can: Record<string, boolean>;
    }[];
    expect(list).toHaveLength(3);
    expect(list.every((u) => u.companyId === w.companyId)).toBe(true);
    expect(list.some((u) => u.role === "super-admin")).toBe(false);
    const self = list.find((u) => u.id === w.adminId)!;
    expect(self.can).toEqual({
      edit: true,
      delete: false,
      disable: false,
      enable: false,
      editClients: false,
      resetTwoFactor: false,
    });
    const clientUser = list.find((u) => u.role === "client-user")!;
    expect(clientUser.can).toEqual({
      edit: true,
      delete: true,
      disable: true,
      enable: false,
      editClients: true,
      // Not enrolled in two-factor sign-in: nothing to reset.
      resetTwoFactor: false,
    });
  });

  it("gets 404 for another company's user and for a super-admin, on every route", async () => {
    for (const id of [w.otherUserId, w.superAdminId]) {
      for (const res of [
        await w.admin.get(`/api/users/${id}`),
        await w.admin.put(
          `/api/users/${id}`,
          edit({ firstName: "X", lastName: "Y", role: "company-user", companyId: w.companyId }),
        ),
        await w.admin.delete(`/api/users/${id}`),
        await w.admin.put(`/api/users/${id}/clients`, { clientIds: [] }),
        await w.admin.post(`/api/users/${id}/disable`),
        await w.admin.post(`/api/users/${id}/enable`),
      ]) {
        expect(res.statusCode).toBe(404);
      }
    }
    expect((await rowOf(w.otherUserId))!).toMatchObject({ banned: false, firstName: "Test" });
  });

  it("creates users in its own company only, whatever company the body names, audited", async () => {
    const res = await w.admin.post(
      "/api/users",
      newUser({ companyId: w.otherCompanyId, email: "Mixed.Case@Example.com" }),
    );
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      email: "mixed.case@example.com",
      companyId: w.companyId,
      companyName: "Acme Builders",
      role: "company-user",
      mustResetPassword: true,
      disabled: false,
      phone: "555-0101",
    });
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, created.id));
    expect(event).toMatchObject({ action: "user.create", actorId: w.adminId, companyId: w.companyId });

    // The new user signs in and is sent to the reset first.
    const signIn = await t.anonymous.post("/api/auth/sign-in", {
      email: created.email,
      password: "a-good-password",
    });
    expect(signIn.json()).toEqual({
      codeRequired: false,
      mustResetPassword: true,
      twoFactorSetupRequired: false,
    });
  });

  it("cannot make a super-admin (403)", async () => {
    const res = await w.admin.post(
      "/api/users",
      newUser({ role: "super-admin", email: "sneaky@example.com" }),
    );
    expect(res.statusCode).toBe(403);
    expect(await t.db.select().from(users).where(eq(users.email, "sneaky@example.com"))).toHaveLength(0);
    const target = (await w.admin.post("/api/users", newUser())).json();
    const promote = await w.admin.put(`/api/users/${target.id}`, edit(target, { role: "super-admin" }));
    expect(promote.statusCode).toBe(403);
    expect((await rowOf(target.id))!.role).toBe("company-user");
  });

  it("cannot change its own role, disable or delete itself", async () => {
    const me = (await w.admin.get(`/api/users/${w.adminId}`)).json();
    const demote = await w.admin.put(`/api/users/${w.adminId}`, edit(me, { role: "company-user" }));
    expect(demote.statusCode).toBe(400);
    expect(demote.json().fields).toEqual({ role: "You cannot change your own role." });
    expect((await w.admin.post(`/api/users/${w.adminId}/disable`)).statusCode).toBe(403);
    expect((await w.admin.delete(`/api/users/${w.adminId}`)).statusCode).toBe(403);
    expect((await rowOf(w.adminId))!).toMatchObject({ role: "company-admin", banned: false });
    // Its own name it may change.
    const renamed = await w.admin.put(`/api/users/${w.adminId}`, edit(me, { firstName: "Adaline" }));
    expect(renamed.statusCode).toBe(200);
    expect((await rowOf(w.adminId))!).toMatchObject({ firstName: "Adaline", name: `Adaline ${me.lastName}` });
  });
});

describe("creating a user", () => {
  it("rejects bad input with field messages and creates nothing", async () => {
    const before = (await t.db.select().from(users)).length;
    const res = await w.superAdmin.post("/api/users", {
      email: "not-an-email",
      firstName: " ",
      lastName: "",
      role: "company-user",
      password: "short",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      email: "Enter a valid email address",
      firstName: "First Name is required",
      lastName: "Last Name is required",
      password: "Password must be at least 8 characters long.",
      companyId: "Company is required",
    });
    const noCompany = await w.superAdmin.post("/api/users", newUser({ companyId: "" }));
    expect(noCompany.statusCode).toBe(400);
    expect(noCompany.json().fields).toEqual({ companyId: "Company is required" });
    const badRole = await w.superAdmin.post("/api/users", newUser({ role: "owner" }));
    expect(badRole.json().fields.role).toBe("Choose a role");
    const missingCompany = await w.superAdmin.post("/api/users", newUser({ companyId: t.make.uuid() }));
    expect(missingCompany.json().fields).toEqual({ companyId: "This company does not exist." });
    expect((await t.db.select().from(users)).length).toBe(before);
  });

  it("answers a duplicate e-mail with 409 and a field message", async () => {
    const first = newUser();
    expect((await w.admin.post("/api/users", first)).statusCode).toBe(201);
    const again = await w.superAdmin.post("/api/users", newUser({ email: first.email.toUpperCase() }));
    expect(again.statusCode).toBe(409);
    expect(again.json().fields).toEqual({ email: "A user with this email already exists." });
  });

  it("lets the super-admin create users in any company and super-admins without one", async () => {
    const inOther = await w.superAdmin.post(
      "/api/users",
      newUser({ companyId: w.otherCompanyId, mustResetPassword: false }),
    );
    expect(inOther.json()).toMatchObject({ companyId: w.otherCompanyId, mustResetPassword: false });
    const sa = await w.superAdmin.post(
      "/api/users",
      newUser({ role: "super-admin", companyId: w.companyId }),
    );
    expect(sa.statusCode).toBe(201);
    expect(sa.json()).toMatchObject({ role: "super-admin", companyId: null, companyName: null });
    const list = (await w.superAdmin.get("/api/users")).json().users as { id: string }[];
    expect(list.some((u) => u.id === sa.json().id)).toBe(true);
    const noCompany = (await w.superAdmin.get("/api/users?companyId=none")).json().users as {
      role: string;
    }[];
    expect(noCompany.every((u) => u.role === "super-admin")).toBe(true);
    const other = (await w.superAdmin.get(`/api/users?companyId=${w.otherCompanyId}`)).json().users as {
      companyId: string;
    }[];
    expect(other.every((u) => u.companyId === w.otherCompanyId)).toBe(true);
  });
});

describe("editing a user", () => {
  it("keeps the e-mail, and a new password ends the user's sessions", async () => {
    const target = await t.make.user({ role: "company-user", companyId: w.companyId });
    const session = await t.signIn(target);
    const res = await w.admin.put(
      `/api/users/${target.id}`,
      edit(target, {
        email: "changed@example.com",
        title: "Lead",
        password: "brand-new-pass",
        mustResetPassword: true,
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: target.email, title: "Lead", mustResetPassword: true });
    expect((await session.get("/api/me")).statusCode).toBe(401);
    expect(
      (await t.anonymous.post("/api/auth/sign-in", { email: target.email, password: target.password }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.anonymous.post("/api/auth/sign-in", { email: target.email, password: "brand-new-pass" }))
        .statusCode,
    ).toBe(200);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, target.id), eq(auditEvents.action, "user.update")));
    expect(event!.details).toMatchObject({ fields: ["title", "mustResetPassword"], passwordChanged: true });
  });

  it("without a new password leaves the sessions alone; a short one is refused", async () => {
    const target = await t.make.user({ role: "company-user", companyId: w.companyId });
    const session = await t.signIn(target);
    expect((await w.admin.put(`/api/users/${target.id}`, edit(target, { password: "" }))).statusCode).toBe(
      200,
    );
    expect((await session.get("/api/me")).statusCode).toBe(200);
    const short = await w.admin.put(
      `/api/users/${target.id}`,
      edit(target, { password: "short", firstName: "Changed" }),
    );
    expect(short.statusCode).toBe(400);
    expect(short.json().fields.password).toBe("Password must be at least 8 characters long.");
    expect((await rowOf(target.id))!.firstName).toBe(target.firstName);
  });

  it("moving a user to another company (super-admin) drops its old clients and reminder subscription", async () => {
    const client = await t.make.client(w.companyId);
    const target = await t.make.user({ role: "client-user", companyId: w.companyId, clientIds: [client.id] });
    await t.db.insert(userNotifications).values({ userId: target.id, companyId: w.companyId });
    const res = await w.superAdmin.put(
      `/api/users/${target.id}`,
      edit(target, { companyId: w.otherCompanyId }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ companyId: w.otherCompanyId, clients: [] });
    expect(await t.db.select().from(userClients).where(eq(userClients.userId, target.id))).toHaveLength(0);
    expect(
      await t.db.select().from(userNotifications).where(eq(userNotifications.userId, target.id)),
    ).toHaveLength(0);
  });

  it("lets a super-admin demote another, but never itself, so one always remains", async () => {
    const other = (await w.superAdmin.post("/api/users", newUser({ role: "super-admin" }))).json();
    // Demoting another super-admin is fine while one remains.
    const demoted = await w.superAdmin.put(
      `/api/users/${other.id}`,
      edit(other, { role: "company-admin", companyId: w.companyId }),
    );
    expect(demoted.statusCode).toBe(200);
    expect(demoted.json()).toMatchObject({ role: "company-admin", companyId: w.companyId });
    const self = (await w.superAdmin.get(`/api/users/${w.superAdminId}`)).json();
    const res = await w.superAdmin.put(
      `/api/users/${w.superAdminId}`,
      edit(self, { role: "company-admin", companyId: w.companyId }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ role: "You cannot change your own role." });
    expect((await rowOf(w.superAdminId))!.role).toBe("super-admin");
  });
});

describe("disabling and enabling", () => {
  it("ends the user's sessions at once and greys them out: no Delete until enabled again", async () => {
    const target = await t.make.user({ role: "company-user", companyId: w.companyId });
    const session = await t.signIn(target);
    expect((await session.get("/api/me")).statusCode).toBe(200);

    const res = await w.admin.post(`/api/users/${target.id}/disable`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      disabled: true,
      can: { delete: false, disable: false, enable: true },
    });
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, target.id))).toHaveLength(0);
    expect((await session.get("/api/me")).statusCode).toBe(401);
    expect(
      (await t.anonymous.post("/api/auth/sign-in", { email: target.email, password: target.password }))
        .statusCode,
    ).toBe(403);

    const del = await w.admin.delete(`/api/users/${target.id}`);
    expect(del.statusCode).toBe(409);
    expect(await rowOf(target.id)).toBeDefined();

    const enabled = await w.admin.post(`/api/users/${target.id}/enable`);
    expect(enabled.json()).toMatchObject({ disabled: false, can: { delete: true, enable: false } });
    expect(
      (await t.anonymous.post("/api/auth/sign-in", { email: target.email, password: target.password }))
        .statusCode,
    ).toBe(200);
    const actions = (await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, target.id))).map(
      (e) => e.action,
    );
    expect(actions).toEqual(expect.arrayContaining(["user.disable", "user.enable"]));
  });

  it("answers with the same rules as the user's flags: disabling a disabled user or enabling an active one is a 409", async () => {
    const target = await t.make.user({ role: "company-user", companyId: w.companyId });
    const active = (await w.admin.get(`/api/users/${target.id}`)).json();
    expect(active.can).toMatchObject({ disable: true, enable: false });
    const enable = await w.admin.post(`/api/users/${target.id}/enable`);
    expect(enable.statusCode).toBe(409);
    expect(enable.json().message).toBe("This user is not disabled.");

    const disabled = await w.admin.post(`/api/users/${target.id}/disable`);
    expect(disabled.json().can).toMatchObject({ disable: false, enable: true });
    const again = await w.admin.post(`/api/users/${target.id}/disable`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("This user is already disabled.");
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, target.id));
    expect(events.filter((e) => e.action === "user.disable")).toHaveLength(1);
  });

  it("a disabled super-admin's impersonation sessions end too", async () => {
    const other = await t.make.user({ role: "super-admin" });
    const otherApi = await t.signIn(other);
    const target = await t.make.user({ role: "company-user", companyId: w.companyId });
    const started = await otherApi.post("/api/impersonation", { userId: target.id });
    expect(started.statusCode).toBe(200);
    expect(await t.db.select().from(sessions).where(eq(sessions.impersonatedBy, other.id))).toHaveLength(1);
    expect((await w.superAdmin.post(`/api/users/${other.id}/disable`)).statusCode).toBe(200);
    expect(await t.db.select().from(sessions).where(eq(sessions.impersonatedBy, other.id))).toHaveLength(0);
  });
});

describe("deleting a user", () => {
  it("removes the user, keeps the audit entry, and another company's user answers 404", async () => {
    const target = (await w.admin.post("/api/users", newUser())).json();
    expect((await w.admin.delete(`/api/users/${target.id}`)).statusCode).toBe(204);
    expect(await rowOf(target.id)).toBeUndefined();
    const actions = (await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, target.id))).map(
      (e) => e.action,
    );
    expect(actions).toEqual(["user.create", "user.delete"]);
    expect((await w.admin.delete(`/api/users/${target.id}`)).statusCode).toBe(404);
  });

  it("lets the super-admin delete another super-admin but never itself", async () => {
    const other = (await w.superAdmin.post("/api/users", newUser({ role: "super-admin" }))).json();
    expect((await w.superAdmin.delete(`/api/users/${other.id}`)).statusCode).toBe(204);
    expect((await w.superAdmin.delete(`/api/users/${w.superAdminId}`)).statusCode).toBe(403);
  });
});

describe("a client-user's clients", () => {
  it("are set to clients of the user's own company only, audited", async () => {
    const a = await t.make.client(w.companyId, "Alpha Client");
    const b = await t.make.client(w.companyId, "Beta Client");
    const foreign = await t.make.client(w.otherCompanyId);
    const target = (await w.admin.post("/api/users", newUser({ role: "client-user" }))).json();
    expect(target.can.editClients).toBe(true);

    const res = await w.admin.put(`/api/users/${target.id}/clients`, { clientIds: [b.id, a.id, a.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json().clients).toEqual([
      { id: a.id, name: "Alpha Client" },
      { id: b.id, name: "Beta Client" },
    ]);

    const bad = await w.admin.put(`/api/users/${target.id}/clients`, { clientIds: [a.id, foreign.id] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ clientIds: "Choose clients of the user's own company." });
    const malformed = await w.admin.put(`/api/users/${target.id}/clients`, { clientIds: ["nope"] });
    expect(malformed.statusCode).toBe(400);
    expect(await t.db.select().from(userClients).where(eq(userClients.userId, target.id))).toHaveLength(2);

    expect((await w.admin.put(`/api/users/${target.id}/clients`, { clientIds: [] })).json().clients).toEqual(
      [],
    );
    const actions = (await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, target.id))).map(
      (e) => e.action,
    );
    expect(actions.filter((a) => a === "user.clients")).toHaveLength(2);
  });

  it("exist only for client-users", async () => {
    const target = (await w.admin.post("/api/users", newUser())).json();
    expect(target.can.editClients).toBe(false);
    const res = await w.admin.put(`/api/users/${target.id}/clients`, { clientIds: [] });
    expect(res.statusCode).toBe(400);
  });
});
