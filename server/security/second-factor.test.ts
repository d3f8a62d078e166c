import { Writable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { symmetricEncrypt } from "better-auth/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import { TWO_FACTOR_FAILURE_LIMIT, TWO_FACTOR_FAILURE_NOTICE } from "../../shared/domain/two-factor.ts";
import { auditEvents, sessions, twoFactors } from "../db/schema.ts";
import {
  cookieHeaderOf,
  createTestContext,
  type ApiClient,
  type TestContext,
} from "../test-support/harness.ts";
import { startTestSmtp, type TestSmtp } from "../test-support/test-smtp.ts";
import { currentTotpStep, totpCode, totpCodeAtStep, wrongTotpCode } from "../test-support/totp.ts";

/**
 * Issue 23's findings on two-factor sign-in, each as an attacker would try it: sessions that never
 * passed a second factor (2), a code used twice (3), guessing without end (5), the code step
 * checking someone else's code (6), a secret that no longer decrypts (10). Real SMTP, both databases.
 */

let smtp: TestSmtp;
const t = {} as TestContext;
const lines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    done();
  },
});

beforeAll(async () => {
  smtp = await startTestSmtp();
  // Limits high enough that the cap, not the per-window limiter, is what stops the guesses here.
  Object.assign(
    t,
    await createTestContext(
      { SMTP_URL: smtp.url, SIGNIN_IP_LIMIT: "10000", SIGNIN_ACCOUNT_LIMIT: "10000" },
      { logStream },
    ),
  );
});
afterAll(async () => {
  await t.close?.();
  await smtp?.close();
});

const post = (url: string, payload: unknown, cookie = "") =>
  t.app.inject({
    method: "POST",
    url,
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, ...(cookie ? { cookie } : {}) },
    payload: payload as object,
  });

/** The password step: the pending sign-in's cookie (or a session's, for a user without a second factor). */
async function passwordStep(user: { email: string; password: string }) {
  const res = await post("/api/auth/sign-in", { email: user.email, password: user.password });
  expect(res.statusCode).toBe(200);
  return cookieHeaderOf(res);
}

const codeStep = (pending: string, code: string, method?: "recovery") =>
  post("/api/auth/sign-in/code", { code, ...(method ? { method } : {}) }, pending);

async function companyWithAdmin(name: string) {
  const company = await t.make.company({ name });
  const admin = await t.make.user({ role: "company-admin", companyId: company.id, firstName: "Ada" });
  return { company, admin };
}

const failuresOf = async (userId: string) =>
  (await t.db.select({ n: twoFactors.codeFailures }).from(twoFactors).where(eq(twoFactors.userId, userId)))[0]
    ?.n;

const eventsOf = (userId: string, action: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, userId), eq(auditEvents.action, action)));

/** Enrols through the account routes from `api`; answers the client with the renewed session. */
async function enrolFrom(api: ApiClient, password: string): Promise<ApiClient> {
  const { manualKey } = (await api.post("/api/me/two-factor/enable", { password })).json();
  const res = await api.post("/api/me/two-factor/confirm", {
    code: await totpCode(manualKey, { fromManualKey: true }),
  });
  expect(res.statusCode).toBe(200);
  return t.withCookie(cookieHeaderOf(res));
}

describe("finding 2: turning two-factor sign-in on or off ends the user's other sessions", () => {
  it("a session held at the enrolment gate does not become a full session when another one enrols", async () => {
    const company = await t.make.company({ requireTwoFactor: true });
    const user = await t.make.user({ role: "company-user", companyId: company.id });
    const gatedA = t.withCookie(await passwordStep(user));
    const gatedB = t.withCookie(await passwordStep(user));
    expect((await gatedB.get("/api/permits")).statusCode).toBe(403);

    const enrolled = await enrolFrom(gatedA, user.password);
    expect((await enrolled.get("/api/permits")).statusCode).toBe(200);
    // The other password-only session is gone, not promoted.
    expect((await gatedB.get("/api/permits")).statusCode).toBe(401);
    expect((await gatedB.get("/api/me")).statusCode).toBe(401);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);
  });

  it("voluntary enrolment ends every older session; turning it off ends the sessions that passed it", async () => {
    const { admin } = await companyWithAdmin("Voluntary Co");
    const first = t.withCookie(await passwordStep(admin));
    const older = t.withCookie(await passwordStep(admin));
    expect((await older.get("/api/permits")).statusCode).toBe(200);

    const enrolled = await enrolFrom(first, admin.password);
    expect((await older.get("/api/permits")).statusCode).toBe(401);
    expect((await enrolled.get("/api/permits")).statusCode).toBe(200);

    // A second session that passed the code step, then the first turns it off.
    const secret = (
      await enrolled.post("/api/me/two-factor/recovery-codes", { password: admin.password })
    ).json();
    expect(secret.recoveryCodes).toHaveLength(10);
    const other = await codeStep(await passwordStep(admin), secret.recoveryCodes[0], "recovery");
    expect(other.statusCode).toBe(200);
    const withCode = t.withCookie(cookieHeaderOf(other));
    expect((await withCode.get("/api/permits")).statusCode).toBe(200);

    const off = await enrolled.post("/api/me/two-factor/disable", { password: admin.password });
    expect(off.statusCode).toBe(200);
    expect((await withCode.get("/api/permits")).statusCode).toBe(401);
    const kept = t.withCookie(cookieHeaderOf(off));
    expect((await kept.get("/api/me")).json()).toMatchObject({ twoFactorEnabled: false });
  });
});

describe("finding 3: an authenticator code is accepted once", () => {
  it("three sign-ins in a row with one code: the first gets in, the others are told it was used", async () => {
    const { company } = await companyWithAdmin("Replay Co");
    const user = await t.make.user({ role: "company-user", companyId: company.id, twoFactor: true });
    const code = await totpCode(user.totpSecret!);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await codeStep(await passwordStep(user), code));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 401]);
    expect(answers[1]!.json()).toEqual({
      code: "CODE_ALREADY_USED",
      message: "That code has already been used. Wait for the next code from your authenticator app.",
    });
    // The replays counted as wrong codes: they are not a second factor.
    expect(await failuresOf(user.id)).toBe(2);
  });

  it("four parallel sign-ins with one code: exactly one gets in", async () => {
    const { company } = await companyWithAdmin("Parallel Co");
    const user = await t.make.user({ role: "company-user", companyId: company.id, twoFactor: true });
    const pendings = await Promise.all([1, 2, 3, 4].map(() => passwordStep(user)));
    const code = await totpCode(user.totpSecret!);
    const answers = await Promise.all(pendings.map((p) => codeStep(p, code)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401]);
  });

  it("refuses a step earlier than one already accepted, and the code that confirmed enrolment", async () => {
    const { company } = await companyWithAdmin("Steps Co");
    const user = await t.make.user({ role: "company-user", companyId: company.id, twoFactor: true });
    const now = currentTotpStep();
    // The next step's code (the app shows it at the turn of the half-minute) is accepted first ...
    expect(
      (await codeStep(await passwordStep(user), await totpCodeAtStep(user.totpSecret!, now + 1))).statusCode,
    ).toBe(200);
    // ... after which the current step's code, still inside the window, is refused.
    const earlier = await codeStep(await passwordStep(user), await totpCodeAtStep(user.totpSecret!, now));
    expect(earlier.json().code).toBe("CODE_ALREADY_USED");

    const enrolling = await t.make.user({ role: "company-user", companyId: company.id });
    const api = t.withCookie(await passwordStep(enrolling));
    const { manualKey } = (
      await api.post("/api/me/two-factor/enable", { password: enrolling.password })
    ).json();
    const first = await totpCode(manualKey, { fromManualKey: true });
    expect((await api.post("/api/me/two-factor/confirm", { code: first })).statusCode).toBe(200);
    expect((await codeStep(await passwordStep(enrolling), first)).json().code).toBe("CODE_ALREADY_USED");
  });
});

describe("finding 5: wrong codes in a row are capped, audited and told", () => {
  it(`locks the code step at ${TWO_FACTOR_FAILURE_LIMIT}, even for the right code, audits each, mails the user and the admins`, async () => {
    const { company, admin } = await companyWithAdmin("Guessing Co");
    const user = await t.make.user({ role: "company-user", companyId: company.id, twoFactor: true });
    const pending = await passwordStep(user);
    const wrong = await wrongTotpCode(user.totpSecret!);
    smtp.messages.length = 0;
    for (let i = 1; i < TWO_FACTOR_FAILURE_LIMIT; i++)
      expect((await codeStep(pending, wrong)).statusCode).toBe(401);
    const last = await codeStep(pending, wrong);
    expect(last.statusCode).toBe(423);
    expect(last.json().code).toBe("TWO_FACTOR_LOCKED");
    // Locked: the right code and a recovery code are not even checked, with a new pending sign-in too.
    const again = await passwordStep(user);
    expect((await codeStep(again, await totpCode(user.totpSecret!))).statusCode).toBe(423);
    expect((await codeStep(again, user.recoveryCodes[0]!, "recovery")).statusCode).toBe(423);
    expect(await failuresOf(user.id)).toBe(TWO_FACTOR_FAILURE_LIMIT);

    expect(await eventsOf(user.id, "two_factor.code_failed")).toHaveLength(TWO_FACTOR_FAILURE_LIMIT - 1);
    const [locked] = await eventsOf(user.id, "two_factor.locked");
    expect(locked!.details).toMatchObject({ method: "totp", consecutiveFailures: TWO_FACTOR_FAILURE_LIMIT });

    const toUser = smtp.messages.filter((m) => m.to.includes(user.email));
    expect(toUser.map((m) => m.subject)).toEqual([
      "Permitrack: wrong sign-in codes on your account",
      "Permitrack: sign-in with a code is locked on your account",
    ]);
    expect(toUser[0]!.decoded).toContain(
      `entered ${TWO_FACTOR_FAILURE_NOTICE} wrong authentication codes in a row`,
    );
    const toAdmin = smtp.messages.filter((m) => m.to.includes(admin.email));
    expect(toAdmin).toHaveLength(1);
    expect(toAdmin[0]!.subject).toBe(`Permitrack: two-factor sign-in locked for Test ${user.lastName}`);

    // Only the admin's reset clears it: the user enrols again at the next sign-in.
    const adminApi = await t.signIn(admin);
    expect((await adminApi.post(`/api/users/${user.id}/two-factor/reset`)).statusCode).toBe(200);
    const fresh = await post("/api/auth/sign-in", { email: user.email, password: user.password });
    expect(fresh.json().codeRequired).toBe(false);
  });

  it("counts at most the limit when 40 wrong codes arrive at once, and a verified code clears the count", async () => {
    const { company } = await companyWithAdmin("Burst Co");
    const user = await t.make.user({ role: "company-user", companyId: company.id, twoFactor: true });
    const pending = await passwordStep(user);
    const wrong = await wrongTotpCode(user.totpSecret!);
    for (let i = 0; i < 5; i++) await codeStep(pending, wrong);
    expect(await failuresOf(user.id)).toBe(5);
    expect((await codeStep(pending, await totpCode(user.totpSecret!))).statusCode).toBe(200);
    expect(await failuresOf(user.id)).toBe(0);

    const burst = await Promise.all(
      Array.from({ length: 40 }, async () => codeStep(await passwordStep(user), wrong)),
    );
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(TWO_FACTOR_FAILURE_LIMIT - 1);
    expect(statuses.filter((s) => s === 423)).toHaveLength(40 - TWO_FACTOR_FAILURE_LIMIT + 1);
    expect(await failuresOf(user.id)).toBe(TWO_FACTOR_FAILURE_LIMIT);
  });
});

describe("finding 5: what counts as a wrong code, and who hears of a lock", () => {
  it("counts only codes that were checked: better-auth's own limit on a pending sign-in adds nothing", async () => {
    const { company } = await companyWithAdmin("Challenge Co");
    const user = await t.make.user({ role: "company-user", companyId: company.id, twoFactor: true });
    const pending = await passwordStep(user);
    const statuses = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await codeStep(pending, "zzzzz-zzzzz", "recovery")).statusCode);
    // better-auth allows 5 tries per pending sign-in, then asks for a new sign-in.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401]);
    expect(await failuresOf(user.id)).toBe(5);
    expect(await eventsOf(user.id, "two_factor.code_failed")).toHaveLength(5);
  });

  it("tells the super-admins when the locked user is the company's only admin", async () => {
    const company = await t.make.company({ name: "Lone Admin Co" });
    const lone = await t.make.user({ role: "company-admin", companyId: company.id, twoFactor: true });
    const superAdmin = await t.make.user({ role: "super-admin" });
    const pending = await passwordStep(lone);
    const wrong = await wrongTotpCode(lone.totpSecret!);
    smtp.messages.length = 0;
    for (let i = 0; i < TWO_FACTOR_FAILURE_LIMIT; i++) await codeStep(pending, wrong);
    const toSuperAdmin = smtp.messages.filter((m) => m.to.includes(superAdmin.email));
    expect(toSuperAdmin.map((m) => m.subject)).toEqual([
      `Permitrack: two-factor sign-in locked for Test ${lone.lastName}`,
    ]);
  });
});

describe("finding 6: the code step checks the pending user's code, whatever session comes with it", () => {
  it("an attacker's own session and code do not sign in as the victim, nor clear the victim's count", async () => {
    const { company } = await companyWithAdmin("Mixup Co");
    const victim = await t.make.user({ role: "company-user", companyId: company.id, twoFactor: true });
    const attacker = await t.make.user({ role: "company-user", companyId: company.id, twoFactor: true });
    const attackerApi = await t.signIn(attacker);
    const pending = await passwordStep(victim);
    const wrong = await wrongTotpCode(victim.totpSecret!);
    for (let i = 0; i < 3; i++) await codeStep(pending, wrong);
    expect(await failuresOf(victim.id)).toBe(3);

    const res = await codeStep(`${pending}; ${attackerApi.cookie}`, await totpCode(attacker.totpSecret!));
    expect(res.statusCode).toBe(401);
    expect(await failuresOf(victim.id)).toBe(4);
    // Recovery codes are checked by better-auth: it must see the pending cookie alone.
    const recovery = await codeStep(
      `${attackerApi.cookie}; ${pending}`,
      attacker.recoveryCodes[0]!,
      "recovery",
    );
    expect(recovery.statusCode).toBe(401);
    expect(await failuresOf(victim.id)).toBe(5);
    // Nobody got a session as the victim.
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, victim.id))).toHaveLength(0);
  });
});

describe("finding 10: a second factor that no longer decrypts", () => {
  it("answers a clear 409, logs it for the operator, and counts no wrong code", async () => {
    const { company } = await companyWithAdmin("Rotated Co");
    const user = await t.make.user({ role: "company-user", companyId: company.id, twoFactor: true });
    // As if SESSION_SECRET changed since enrolment: stored under another key.
    const foreign = await symmetricEncrypt({
      key: "an-older-session-secret-0123456789abcdef",
      data: user.totpSecret!,
    });
    await t.db
      .update(twoFactors)
      .set({ secret: foreign, backupCodes: foreign })
      .where(eq(twoFactors.userId, user.id));
    lines.length = 0;
    for (const [code, method] of [
      [await totpCode(user.totpSecret!)],
      [user.recoveryCodes[0]!, "recovery" as const],
    ] as const) {
      const res = await codeStep(await passwordStep(user), code, method);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        code: "TWO_FACTOR_UNREADABLE",
        message:
          "Your two-factor authentication cannot be checked: it was set up under a server key that has since changed. Ask your administrator to reset your two-factor authentication.",
      });
    }
    expect(await failuresOf(user.id)).toBe(0);
    const errors = lines.map((l) => JSON.parse(l)).filter((l) => l.level >= 50);
    expect(errors.some((l) => /SESSION_SECRET/.test(l.msg) && l.userId === user.id)).toBe(true);
  });
});
