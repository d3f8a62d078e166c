import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, twoFactors, users } from "../../db/schema.ts";
import { cookieHeaderOf, type ApiClient } from "../../test-support/harness.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { totpCode, wrongTotpCode } from "../../test-support/totp.ts";

const t = useTestContext({ SIGNIN_ACCOUNT_LIMIT: "3", SIGNIN_IP_LIMIT: "1000" });

type Person = { email: string; password: string; totpSecret?: string | null };

/** A company-user of a company that does not require two-factor sign-in. */
async function staff(opts: { twoFactor?: boolean } = {}) {
  const company = await t.make.company();
  return t.make.user({ companyId: company.id, twoFactor: opts.twoFactor });
}

/** The password step: the answer and a client carrying whatever cookies it set. */
async function passwordStep(user: Person) {
  const res = await t.anonymous.post("/api/auth/sign-in", { email: user.email, password: user.password });
  return { res, browser: t.withCookie(cookieHeaderOf(res)) };
}

/** Enrols a signed-in user through the account routes; returns the secret (from the manual key) and codes. */
async function enrol(api: ApiClient, password: string) {
  const started = await api.post("/api/me/two-factor/enable", { password });
  expect(started.statusCode).toBe(200);
  const { manualKey } = started.json() as { manualKey: string };
  const confirmed = await api.post("/api/me/two-factor/confirm", {
    code: await totpCode(manualKey, { fromManualKey: true }),
  });
  expect(confirmed.statusCode).toBe(200);
  return {
    manualKey,
    recoveryCodes: confirmed.json().recoveryCodes as string[],
    api: t.withCookie(cookieHeaderOf(confirmed)),
  };
}

const auditOf = (userId: string, action: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, userId), eq(auditEvents.action, action)));

describe("enrolment on the account page", () => {
  it("needs a session and the current password", async () => {
    expect((await t.anonymous.get("/api/me/two-factor")).statusCode).toBe(401);
    expect((await t.anonymous.post("/api/me/two-factor/enable", { password: "x" })).statusCode).toBe(401);
    const user = await staff();
    const api = await t.signIn(user);
    const wrong = await api.post("/api/me/two-factor/enable", { password: "not-my-password" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: "VALIDATION",
      fields: { password: "The password is not correct." },
    });
    const empty = await api.post("/api/me/two-factor/enable", { password: "" });
    expect(empty.json().fields).toEqual({ password: "Password is required" });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.twoFactorEnabled).toBe(false);
  });

  it("gives an otpauth URI and manual key, confirms with a first code, then shows the recovery codes once", async () => {
    const user = await staff();
    const api = await t.signIn(user);
    expect((await api.get("/api/me/two-factor")).json()).toEqual({
      enabled: false,
      required: false,
      recoveryCodesLeft: null,
      can: { enable: true, disable: false, regenerateRecoveryCodes: false },
    });

    const started = await api.post("/api/me/two-factor/enable", { password: user.password });
    expect(started.statusCode).toBe(200);
    const { otpauthUri, manualKey } = started.json() as { otpauthUri: string; manualKey: string };
    expect(otpauthUri).toMatch(
      new RegExp(`^otpauth://totp/Permitrack:${encodeURIComponent(user.email)}\\?secret=${manualKey}&`),
    );
    expect(otpauthUri).toContain("issuer=Permitrack");
    expect(manualKey).toMatch(/^[A-Z2-7]{32,}$/);
    // Not on until a code proves the app has the secret: the next sign-in asks for none.
    expect((await passwordStep(user)).res.json().codeRequired).toBe(false);

    const wrong = await api.post("/api/me/two-factor/confirm", {
      code: await wrongTotpCode(manualKey, { fromManualKey: true }),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toHaveProperty("code");
    const malformed = await api.post("/api/me/two-factor/confirm", { code: "12ab" });
    expect(malformed.json().fields).toEqual({
      code: "Enter the 6-digit code from your authenticator app.",
    });

    const confirmed = await api.post("/api/me/two-factor/confirm", {
      code: await totpCode(manualKey, { fromManualKey: true }),
    });
    expect(confirmed.statusCode).toBe(200);
    const codes = confirmed.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    expect(new Set(codes).size).toBe(10);
    // better-auth replaced the session: the old cookie is done, the new one works.
    expect((await api.get("/api/me")).statusCode).toBe(401);
    const fresh = t.withCookie(cookieHeaderOf(confirmed));
    expect((await fresh.get("/api/me")).json()).toMatchObject({
      twoFactorEnabled: true,
      twoFactorRequired: false,
      twoFactorSetupRequired: false,
    });
    expect((await fresh.get("/api/me/two-factor")).json()).toEqual({
      enabled: true,
      required: false,
      recoveryCodesLeft: 10,
      can: { enable: false, disable: true, regenerateRecoveryCodes: true },
    });
    // Shown once: a second confirm is refused, and the secret is stored encrypted.
    const again = await fresh.post("/api/me/two-factor/confirm", { code: "123456" });
    expect(again.statusCode).toBe(409);
    const [stored] = await t.db.select().from(twoFactors).where(eq(twoFactors.userId, user.id));
    expect(stored!.secret).not.toContain(manualKey);
    expect(stored!.backupCodes).not.toContain(codes[0]!);
    expect(await auditOf(user.id, "two_factor.enable")).toHaveLength(1);
  });

  it("refuses a confirm without an enrolment waiting", async () => {
    const api = await t.signIn(await staff());
    const res = await api.post("/api/me/two-factor/confirm", { code: "123456" });
    expect(res.statusCode).toBe(409);
  });
});

describe("signing in with two-factor sign-in", () => {
  it("asks for a code after the password, sets no session until the code is right", async () => {
    const user = await staff({ twoFactor: true });
    const { res, browser } = await passwordStep(user);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      codeRequired: true,
      mustResetPassword: false,
      twoFactorSetupRequired: false,
    });
    expect(res.cookies.find((c) => c.name === "permitrack.session_token")?.value ?? "").toBe("");
    const pending = res.cookies.find((c) => c.name === "permitrack.two_factor");
    expect(pending?.httpOnly).toBe(true);
    expect((await browser.get("/api/me")).statusCode).toBe(401);

    const wrong = await browser.post("/api/auth/sign-in/code", {
      code: await wrongTotpCode(user.totpSecret!),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ code: "INVALID_CREDENTIALS", message: "Invalid authentication code." });
    expect(wrong.cookies.find((c) => c.name === "permitrack.session_token")).toBeUndefined();

    const ok = await browser.post("/api/auth/sign-in/code", { code: await totpCode(user.totpSecret!) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      codeRequired: false,
      mustResetPassword: false,
      twoFactorSetupRequired: false,
    });
    const session = ok.cookies.find((c) => c.name === "permitrack.session_token");
    expect(session?.httpOnly).toBe(true);
    const api = t.withCookie(cookieHeaderOf(ok));
    expect((await api.get("/api/me")).json()).toMatchObject({ email: user.email, twoFactorEnabled: true });
    // The pending sign-in is used up.
    expect(
      (await browser.post("/api/auth/sign-in/code", { code: await totpCode(user.totpSecret!) })).statusCode,
    ).toBe(401);
  });

  it("accepts a code typed in two groups, and answers malformed input and a missing sign-in plainly", async () => {
    const user = await staff({ twoFactor: true });
    const { browser } = await passwordStep(user);
    const code = await totpCode(user.totpSecret!);
    const malformed = await browser.post("/api/auth/sign-in/code", { code: "12" });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields).toEqual({ code: "Enter the 6-digit code from your authenticator app." });
    expect(
      (await browser.post("/api/auth/sign-in/code", { code: `${code.slice(0, 3)} ${code.slice(3)}` }))
        .statusCode,
    ).toBe(200);

    const none = await t.anonymous.post("/api/auth/sign-in/code", { code: "123456" });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({
      code: "UNAUTHENTICATED",
      message: "Your sign-in has expired. Please sign in again.",
    });
    const forged = await t
      .withCookie("permitrack.two_factor=2fa-forged.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA%3D")
      .post("/api/auth/sign-in/code", { code: "123456" });
    expect(forged.statusCode).toBe(401);
  });

  it("takes a recovery code once, however it is typed, and records its use", async () => {
    const user = await staff({ twoFactor: true });
    const [first, second] = user.recoveryCodes;
    const a = await passwordStep(user);
    const used = await a.browser.post("/api/auth/sign-in/code", {
      code: first!.toUpperCase().replace("-", ""),
      method: "recovery",
    });
    expect(used.statusCode).toBe(200);
    const api = t.withCookie(cookieHeaderOf(used));
    expect((await api.get("/api/me")).statusCode).toBe(200);
    expect((await api.get("/api/me/two-factor")).json().recoveryCodesLeft).toBe(9);
    const [event] = await auditOf(user.id, "two_factor.recovery_code_used");
    expect(event).toMatchObject({ actorId: user.id, entityType: "user" });

    const b = await passwordStep(user);
    const reused = await b.browser.post("/api/auth/sign-in/code", { code: first!, method: "recovery" });
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toEqual({ code: "INVALID_CREDENTIALS", message: "Invalid recovery code." });
    const wrongKind = await b.browser.post("/api/auth/sign-in/code", { code: "123456", method: "recovery" });
    expect(wrongKind.statusCode).toBe(400);
    expect(
      (await b.browser.post("/api/auth/sign-in/code", { code: second!, method: "recovery" })).statusCode,
    ).toBe(200);
  });

  it("limits wrong codes per user, with Retry-After; signing in again with the password buys no more tries", async () => {
    const user = await staff({ twoFactor: true });
    const { browser } = await passwordStep(user);
    for (let i = 0; i < 3; i++) {
      const res = await browser.post("/api/auth/sign-in/code", {
        code: await wrongTotpCode(user.totpSecret!),
      });
      expect(res.statusCode).toBe(401);
    }
    const limited = await browser.post("/api/auth/sign-in/code", { code: await totpCode(user.totpSecret!) });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe("RATE_LIMITED");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);

    const again = await passwordStep(user);
    expect(again.res.json().codeRequired).toBe(true);
    const still = await again.browser.post("/api/auth/sign-in/code", {
      code: await totpCode(user.totpSecret!),
    });
    expect(still.statusCode).toBe(429);
    // Someone else is not affected.
    const other = await staff({ twoFactor: true });
    await t.signIn(other);
  });
});

describe("recovery codes and turning it off", () => {
  it("renews the recovery codes with the password; the old ones stop working", async () => {
    const user = await staff({ twoFactor: true });
    const api = await t.signIn(user);
    expect(
      (await api.post("/api/me/two-factor/recovery-codes", { password: "wrong-password" })).statusCode,
    ).toBe(400);
    const res = await api.post("/api/me/two-factor/recovery-codes", { password: user.password });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(user.recoveryCodes[0]);
    expect(await auditOf(user.id, "two_factor.recovery_codes")).toHaveLength(1);

    const { browser } = await passwordStep(user);
    expect(
      (await browser.post("/api/auth/sign-in/code", { code: user.recoveryCodes[0]!, method: "recovery" }))
        .statusCode,
    ).toBe(401);
    expect(
      (await browser.post("/api/auth/sign-in/code", { code: fresh[0]!, method: "recovery" })).statusCode,
    ).toBe(200);
  });

  it("refuses renewal and turning off to a user without it", async () => {
    const user = await staff();
    const api = await t.signIn(user);
    expect(
      (await api.post("/api/me/two-factor/recovery-codes", { password: user.password })).statusCode,
    ).toBe(409);
    expect((await api.post("/api/me/two-factor/disable", { password: user.password })).statusCode).toBe(409);
  });

  it("turns off with the password when nothing requires it: the next sign-in asks for no code", async () => {
    const user = await staff();
    const { api } = await enrol(await t.signIn(user), user.password);
    expect((await passwordStep(user)).res.json().codeRequired).toBe(true);
    expect((await api.post("/api/me/two-factor/disable", { password: "nope-nope-nope" })).statusCode).toBe(
      400,
    );
    const off = await api.post("/api/me/two-factor/disable", { password: user.password });
    expect(off.statusCode).toBe(200);
    const after = t.withCookie(cookieHeaderOf(off));
    expect((await after.get("/api/me/two-factor")).json()).toMatchObject({
      enabled: false,
      recoveryCodesLeft: null,
    });
    expect((await passwordStep(user)).res.json().codeRequired).toBe(false);
    expect(await t.db.select().from(twoFactors).where(eq(twoFactors.userId, user.id))).toHaveLength(0);
    expect(await auditOf(user.id, "two_factor.disable")).toHaveLength(1);
  });

  it("never turns off for a super-admin", async () => {
    const sa = await t.make.user({ role: "super-admin" });
    const api = await t.signIn(sa);
    expect((await api.get("/api/me/two-factor")).json()).toMatchObject({
      enabled: true,
      required: true,
      can: { disable: false },
    });
    const res = await api.post("/api/me/two-factor/disable", { password: sa.password });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      "Two-factor authentication is required for your account and cannot be turned off.",
    );
    expect((await passwordStep(sa)).res.json().codeRequired).toBe(true);
  });
});
