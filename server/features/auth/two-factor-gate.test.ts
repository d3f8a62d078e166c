import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents } from "../../db/schema.ts";
import { cookieHeaderOf, type ApiClient } from "../../test-support/harness.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { totpCode } from "../../test-support/totp.ts";
import { useWorld } from "../../test-support/world.ts";

const t = useTestContext();
const w = useWorld(t);

const GATED = {
  code: "TWO_FACTOR_SETUP_REQUIRED",
  message: "You must set up two-factor authentication before continuing.",
};

/** Signs in with the password only (the user has no second factor yet). */
async function signInPassword(user: { email: string; password: string }) {
  const res = await t.anonymous.post("/api/auth/sign-in", { email: user.email, password: user.password });
  expect(res.statusCode).toBe(200);
  return { answer: res.json(), api: t.withCookie(cookieHeaderOf(res)) };
}

/** Enrols through the account routes and returns the client with the session better-auth renewed. */
async function enrol(api: ApiClient, password: string): Promise<ApiClient> {
  const { manualKey } = (await api.post("/api/me/two-factor/enable", { password })).json();
  const res = await api.post("/api/me/two-factor/confirm", {
    code: await totpCode(manualKey, { fromManualKey: true }),
  });
  expect(res.statusCode).toBe(200);
  return t.withCookie(cookieHeaderOf(res));
}

/** Every route but enrolment, /api/me and sign-out answers the gate's 403. */
async function expectGated(api: ApiClient) {
  for (const res of [
    await api.get("/api/permits"),
    await api.get("/api/companies"),
    await api.post("/api/me/calendar-token"),
  ]) {
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(GATED);
  }
  expect((await api.get("/api/me")).json()).toMatchObject({ twoFactorSetupRequired: true });
  expect((await api.get("/api/me/two-factor")).statusCode).toBe(200);
}

describe("a super-admin without a second factor", () => {
  it("signs in with the password, may only enrol until it is done, then gets everything", async () => {
    const sa = await t.make.user({ role: "super-admin", twoFactor: false });
    const { answer, api } = await signInPassword(sa);
    expect(answer).toEqual({ codeRequired: false, mustResetPassword: false, twoFactorSetupRequired: true });
    await expectGated(api);
    expect((await api.get("/api/me")).json()).toMatchObject({
      twoFactorEnabled: false,
      twoFactorRequired: true,
      twoFactorSetupRequired: true,
    });

    const enrolled = await enrol(api, sa.password);
    expect((await enrolled.get("/api/permits")).statusCode).toBe(200);
    expect((await enrolled.get("/api/me")).json()).toMatchObject({
      twoFactorEnabled: true,
      twoFactorSetupRequired: false,
    });
    expect(
      (await t.anonymous.post("/api/auth/sign-in", { email: sa.email, password: sa.password })).json(),
    ).toEqual({ codeRequired: true, mustResetPassword: false, twoFactorSetupRequired: false });
    // Sign-out stays open to a gated user.
    const other = await signInPassword(await t.make.user({ role: "super-admin", twoFactor: false }));
    expect((await other.api.post("/api/auth/sign-out")).statusCode).toBe(204);
  });

  it("resets a forced password first, then enrols", async () => {
    const sa = await t.make.user({ role: "super-admin", twoFactor: false, mustResetPassword: true });
    const { answer, api } = await signInPassword(sa);
    expect(answer).toEqual({ codeRequired: false, mustResetPassword: true, twoFactorSetupRequired: true });
    expect((await api.get("/api/permits")).json().code).toBe("PASSWORD_RESET_REQUIRED");
    // Enrolment waits for the new password.
    expect((await api.post("/api/me/two-factor/enable", { password: sa.password })).json().code).toBe(
      "PASSWORD_RESET_REQUIRED",
    );
    const reset = await api.post("/api/me/password", {
      newPassword: "a-new-password-1",
      confirmPassword: "a-new-password-1",
    });
    expect(reset.statusCode).toBe(200);
    expect((await api.get("/api/permits")).json()).toEqual(GATED);
    const enrolled = await enrol(api, "a-new-password-1");
    expect((await enrolled.get("/api/permits")).statusCode).toBe(200);
  });
});

describe("a company that requires two-factor sign-in", () => {
  it("is set by a super-admin on the company; left out of an update, it stays as it was", async () => {
    const created = await w.superAdmin.post("/api/companies", {
      name: "Strict Co",
      slug: "strict-co",
      requireTwoFactor: true,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().requireTwoFactor).toBe(true);
    const id = created.json().id as string;
    const renamed = await w.superAdmin.put(`/api/companies/${id}`, {
      name: "Strict Company",
      slug: "strict-co",
    });
    expect(renamed.json().requireTwoFactor).toBe(true);
    const off = await w.superAdmin.put(`/api/companies/${id}`, {
      name: "Strict Company",
      slug: "strict-co",
      requireTwoFactor: false,
    });
    expect(off.json().requireTwoFactor).toBe(false);
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, id), eq(auditEvents.action, "company.update")));
    expect(events.map((e) => (e.details as { fields: string[] }).fields)).toEqual(
      expect.arrayContaining([["name"], ["requireTwoFactor"]]),
    );
    // A company-admin cannot change it (companies are the super-admin's).
    const mine = await w.admin.put(`/api/companies/${w.companyId}`, {
      name: "Acme Builders",
      slug: w.company.slug,
      requireTwoFactor: true,
    });
    expect(mine.statusCode).toBe(403);
  });

  it("holds its staff at the gate from their next request, not its client-users", async () => {
    const company = await t.make.company({ name: "Gated Co" });
    const client = await t.make.client(company.id);
    const admin = await t.make.user({ role: "company-admin", companyId: company.id });
    const user = await t.make.user({ role: "company-user", companyId: company.id });
    const clientUser = await t.make.user({
      role: "client-user",
      companyId: company.id,
      clientIds: [client.id],
    });
    const sessions = {
      admin: await t.signIn(admin),
      user: await t.signIn(user),
      clientUser: await t.signIn(clientUser),
    };
    expect((await sessions.user.get("/api/permits")).statusCode).toBe(200);

    const slug = company.slug;
    expect(
      (
        await w.superAdmin.put(`/api/companies/${company.id}`, {
          name: "Gated Co",
          slug,
          requireTwoFactor: true,
        })
      ).statusCode,
    ).toBe(200);
    await expectGated(sessions.admin);
    await expectGated(sessions.user);
    expect((await sessions.clientUser.get("/api/permits")).statusCode).toBe(200);
    expect((await sessions.clientUser.get("/api/me")).json()).toMatchObject({
      twoFactorRequired: false,
      twoFactorSetupRequired: false,
    });
    expect((await signInPassword(user)).answer.twoFactorSetupRequired).toBe(true);
    expect((await signInPassword(clientUser)).answer.twoFactorSetupRequired).toBe(false);

    // Enrolled staff get in; they cannot turn it off while the company requires it.
    const enrolled = await enrol(sessions.user, user.password);
    expect((await enrolled.get("/api/permits")).statusCode).toBe(200);
    expect((await enrolled.get("/api/me/two-factor")).json()).toMatchObject({
      enabled: true,
      required: true,
      can: { disable: false },
    });
    expect((await enrolled.post("/api/me/two-factor/disable", { password: user.password })).statusCode).toBe(
      403,
    );
  });
});

describe("a super-admin viewing the app as a gated user", () => {
  it("is not held at that user's gate, and cannot change that user's second factor", async () => {
    const company = await t.make.company({ requireTwoFactor: true });
    const user = await t.make.user({ role: "company-user", companyId: company.id });
    const sa = await t.make.user({ role: "super-admin" });
    const saApi = await t.signIn(sa);
    const started = await saApi.post("/api/impersonation", { userId: user.id });
    expect(started.statusCode).toBe(200);
    const viewing = t.withCookie(cookieHeaderOf(started));
    const me = await viewing.get("/api/me");
    expect(me.json()).toMatchObject({ id: user.id, twoFactorSetupRequired: false });
    expect((await viewing.get("/api/permits")).statusCode).toBe(200);
    const enable = await viewing.post("/api/me/two-factor/enable", { password: user.password });
    expect(enable.statusCode).toBe(403);
    expect(enable.json().message).toBe("Two-factor sign-in cannot be changed while viewing as another user.");
  });
});
