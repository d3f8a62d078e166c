import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions, users } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";

const t = useTestContext({ SIGNIN_ACCOUNT_LIMIT: "3", SIGNIN_IP_LIMIT: "1000" });

describe("sign-in", () => {
  it("signs in, sets an HttpOnly session cookie and answers /api/me with the user and company", async () => {
    const company = await t.make.company({ name: "Acme Builders", address: "1 Main St", phone: "555-0100" });
    const user = await t.make.user({ role: "company-admin", companyId: company.id, firstName: "Ada" });
    const res = await t.anonymous.post("/api/auth/sign-in", {
      email: user.email.toUpperCase(),
      password: user.password,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      codeRequired: false,
      mustResetPassword: false,
      twoFactorSetupRequired: false,
    });
    const cookie = res.cookies.find((c) => c.name === "permitrack.session_token");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");

    const api = await t.signIn(user);
    const me = await api.get("/api/me");
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: user.email,
      firstName: "Ada",
      role: "company-admin",
      companyId: company.id,
      company: { name: "Acme Builders", address: "1 Main St", phone: "555-0100" },
      impersonator: null,
    });
    expect(me.json().capabilities).toContain("users.manage");
    expect(me.json().capabilities).not.toContain("companies.manage");
  });

  it("answers a wrong password and an unknown e-mail identically", async () => {
    const company = await t.make.company();
    const user = await t.make.user({ companyId: company.id });
    const wrong = await t.anonymous.post("/api/auth/sign-in", {
      email: user.email,
      password: "not-the-password",
    });
    const unknown = await t.anonymous.post("/api/auth/sign-in", {
      email: "nobody@example.com",
      password: "whatever1",
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ code: "INVALID_CREDENTIALS", message: "Invalid email or password." });
    expect(wrong.cookies).toHaveLength(0);
  });

  it("rejects malformed input with field messages", async () => {
    const res = await t.anonymous.post("/api/auth/sign-in", { email: "not-an-email", password: "" });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("VALIDATION");
    expect(Object.keys(res.json().fields)).toEqual(expect.arrayContaining(["email", "password"]));
  });

  it("requires a session for /api/me", async () => {
    const res = await t.anonymous.get("/api/me");
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe("UNAUTHENTICATED");
  });

  it("locks an account after repeated failures, with Retry-After, even for the right password", async () => {
    const company = await t.make.company();
    const user = await t.make.user({ companyId: company.id });
    for (let i = 0; i < 3; i++) {
      expect(
        (await t.anonymous.post("/api/auth/sign-in", { email: user.email, password: "bad-password" }))
          .statusCode,
      ).toBe(401);
    }
    const locked = await t.anonymous.post("/api/auth/sign-in", {
      email: user.email,
      password: user.password,
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe("RATE_LIMITED");
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
  });
});

describe("sign-out", () => {
  it("ends the session: the old cookie no longer works", async () => {
    const company = await t.make.company();
    const user = await t.make.user({ companyId: company.id });
    const api = await t.signIn(user);
    expect((await api.get("/api/me")).statusCode).toBe(200);
    expect((await api.post("/api/auth/sign-out")).statusCode).toBe(204);
    expect((await api.get("/api/me")).statusCode).toBe(401);
  });
});

describe("forced password reset", () => {
  it("gates every call until a new password is set, then lets the user in", async () => {
    const company = await t.make.company();
    const user = await t.make.user({ companyId: company.id, mustResetPassword: true });
    const signIn = await t.anonymous.post("/api/auth/sign-in", {
      email: user.email,
      password: user.password,
    });
    expect(signIn.json()).toEqual({
      codeRequired: false,
      mustResetPassword: true,
      twoFactorSetupRequired: false,
    });
    const other = await t.signIn(user); // a second session, which the reset must end
    const api = await t.signIn(user);

    const gated = await api.get("/api/me");
    expect(gated.statusCode).toBe(403);
    expect(gated.json().code).toBe("PASSWORD_RESET_REQUIRED");

    const short = await api.post("/api/me/password", { newPassword: "short", confirmPassword: "short" });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields.newPassword).toBe("Password must be at least 8 characters long.");

    const mismatch = await api.post("/api/me/password", {
      newPassword: "new-password-1",
      confirmPassword: "new-password-2",
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().fields.confirmPassword).toBe("Passwords do not match.");

    const ok = await api.post("/api/me/password", {
      newPassword: "new-password-1",
      confirmPassword: "new-password-1",
    });
    expect(ok.statusCode).toBe(200);
    expect((await api.get("/api/me")).statusCode).toBe(200);
    expect((await other.get("/api/me")).statusCode).toBe(401);

    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.mustResetPassword).toBe(false);
    expect(
      (await t.anonymous.post("/api/auth/sign-in", { email: user.email, password: user.password }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.anonymous.post("/api/auth/sign-in", { email: user.email, password: "new-password-1" }))
        .statusCode,
    ).toBe(200);
  });

  it("refuses the reset when none is pending", async () => {
    const company = await t.make.company();
    const api = await t.signIn(await t.make.user({ companyId: company.id }));
    const res = await api.post("/api/me/password", {
      newPassword: "another-pass-1",
      confirmPassword: "another-pass-1",
    });
    expect(res.statusCode).toBe(409);
  });
});

describe("disabled users", () => {
  it("cannot sign in", async () => {
    const company = await t.make.company();
    const user = await t.make.user({ companyId: company.id, banned: true });
    const res = await t.anonymous.post("/api/auth/sign-in", { email: user.email, password: user.password });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("ACCOUNT_DISABLED");
  });

  it("lose their open sessions at the next request", async () => {
    const company = await t.make.company();
    const user = await t.make.user({ companyId: company.id });
    const api = await t.signIn(user);
    expect((await api.get("/api/me")).statusCode).toBe(200);
    await t.db.update(users).set({ banned: true }).where(eq(users.id, user.id));
    const res = await api.get("/api/me");
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe("ACCOUNT_DISABLED");
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
  });
});

describe("CSRF defence", () => {
  it("refuses a state-changing request without the custom header", async () => {
    const company = await t.make.company();
    const user = await t.make.user({ companyId: company.id });
    const api = await t.signIn(user);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { cookie: api.cookie, "content-type": "application/x-www-form-urlencoded" },
      payload: "a=1",
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("CSRF");
    expect((await api.get("/api/me")).statusCode).toBe(200); // the session survived
  });

  it("refuses a cross-site Origin even with the header", async () => {
    const company = await t.make.company();
    const user = await t.make.user({ companyId: company.id });
    const res = await t.anonymous.request({
      method: "POST",
      url: "/api/auth/sign-in",
      headers: { origin: "https://evil.example" },
      payload: { email: user.email, password: user.password },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("CSRF");
    expect(res.cookies).toHaveLength(0);
  });

  it("accepts the app's own origin", async () => {
    const company = await t.make.company();
    const user = await t.make.user({ companyId: company.id });
    const res = await t.anonymous.request({
      method: "POST",
      url: "/api/auth/sign-in",
      headers: { origin: "http://localhost:3000" },
      payload: { email: user.email, password: user.password },
    });
    expect(res.statusCode).toBe(200);
  });
});
