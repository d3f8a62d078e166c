import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, twoFactors, users } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";

const t = useTestContext();
const w = useWorld(t, { otherAdmin: true });

const reset = (id: string) => `/api/users/${id}/two-factor/reset`;

/** A user of the world's company enrolled in two-factor sign-in, with a live session. */
async function enrolledUser(
  companyId = w.companyId,
  role: "company-user" | "company-admin" = "company-user",
) {
  const user = await t.make.user({ role, companyId, twoFactor: true });
  return { user, session: await t.signIn(user) };
}

describe("POST /api/users/:id/two-factor/reset (a lost phone)", () => {
  it("requires sign-in; company-users and client-users may not (403)", async () => {
    const { user } = await enrolledUser();
    expect((await t.anonymous.post(reset(user.id))).statusCode).toBe(401);
    expect((await w.user.post(reset(user.id))).statusCode).toBe(403);
    expect((await w.clientUser.post(reset(user.id))).statusCode).toBe(403);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.twoFactorEnabled).toBe(true);
  });

  it("lets a company-admin reset its own company's user: secret and codes gone, sessions ended, audited", async () => {
    const { user, session } = await enrolledUser();
    const before = (await w.admin.get(`/api/users/${user.id}`)).json();
    expect(before).toMatchObject({ twoFactorEnabled: true, can: { resetTwoFactor: true } });

    const res = await w.admin.post(reset(user.id));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: user.id,
      twoFactorEnabled: false,
      can: { resetTwoFactor: false },
    });
    expect(await t.db.select().from(twoFactors).where(eq(twoFactors.userId, user.id))).toHaveLength(0);
    expect((await session.get("/api/me")).statusCode).toBe(401);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, user.id), eq(auditEvents.action, "user.two_factor_reset")));
    expect(event).toMatchObject({
      actorId: w.adminId,
      companyId: w.companyId,
      entityType: "user",
      details: { email: user.email },
    });
    // The user signs in with the password alone now (the company does not require a second factor).
    const signIn = await t.anonymous.post("/api/auth/sign-in", {
      email: user.email,
      password: user.password,
    });
    expect(signIn.json()).toEqual({
      codeRequired: false,
      mustResetPassword: false,
      twoFactorSetupRequired: false,
    });
    // Nothing left to reset.
    const again = await w.admin.post(reset(user.id));
    expect(again.statusCode).toBe(409);
  });

  it("answers 404 for another company's user and for a super-admin", async () => {
    const { user: foreign } = await enrolledUser(w.otherCompanyId);
    const sa = await t.make.user({ role: "super-admin" });
    expect((await w.admin.post(reset(foreign.id))).statusCode).toBe(404);
    expect((await w.admin.post(reset(sa.id))).statusCode).toBe(404);
    expect((await w.otherAdmin.post(reset(w.adminId))).statusCode).toBe(404);
    expect((await w.admin.post(reset(t.make.uuid()))).statusCode).toBe(404);
    for (const id of [foreign.id, sa.id]) {
      const [row] = await t.db.select().from(users).where(eq(users.id, id));
      expect(row!.twoFactorEnabled).toBe(true);
    }
  });

  it("lets a super-admin reset anyone's, another super-admin's included, who must then enrol again", async () => {
    const { user: foreign } = await enrolledUser(w.otherCompanyId, "company-admin");
    expect((await w.superAdmin.post(reset(foreign.id))).statusCode).toBe(200);

    const other = await t.make.user({ role: "super-admin" });
    const listed = (await w.superAdmin.get(`/api/users/${other.id}`)).json();
    expect(listed.can.resetTwoFactor).toBe(true);
    expect((await w.superAdmin.post(reset(other.id))).statusCode).toBe(200);
    const signIn = await t.anonymous.post("/api/auth/sign-in", {
      email: other.email,
      password: other.password,
    });
    expect(signIn.json()).toEqual({
      codeRequired: false,
      mustResetPassword: false,
      twoFactorSetupRequired: true,
    });
  });

  it("refuses one's own (that is the account page's)", async () => {
    const res = await w.superAdmin.post(reset(w.superAdminId));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe("Change your own two-factor authentication on your account page.");
    expect((await w.superAdmin.get("/api/me")).statusCode).toBe(200);
  });
});
