import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, twoFactor } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { accounts, sessions, twoFactors, users, verifications } from "../db/schema.ts";
import { countedApi } from "./better-auth-calls.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import { generateRecoveryCodes, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "./two-factor-codes.ts";

/** A session lasts a week from its last refresh; it is refreshed at most once a day. */
export const SESSION_EXPIRES_IN_S = 60 * 60 * 24 * 7;
export const SESSION_UPDATE_AGE_S = 60 * 60 * 24;

const ac = createAccessControl({ user: ["impersonate"], session: ["revoke"] } as const);
const none = ac.newRole({});

/**
 * better-auth owns password sign-in, database sessions, the signed session cookie and
 * impersonation, and the second factor (TOTP and recovery codes). What it leaves out (DESIGN.md
 * "known traps") is ours: the forced password reset, who must use two-factor sign-in, per-account
 * rate limits, disabled-user checks on every request, CSRF on our own routes.
 */
export function createAuth(db: Db, config: Config, secret: string) {
  const auth = betterAuth({
    appName: "Permitrack",
    baseURL: config.publicUrl,
    basePath: "/api/auth",
    secret,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        twoFactor: twoFactors,
      },
    }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      password: { hash: hashPassword, verify: ({ hash, password }) => verifyPassword(hash, password) },
    },
    session: {
      expiresIn: SESSION_EXPIRES_IN_S,
      updateAge: SESSION_UPDATE_AGE_S,
      // Off, so that disabling a user or revoking a session takes effect at the next request.
      cookieCache: { enabled: false },
    },
    // Our own limiter (database-backed, per IP and per account) guards sign-in.
    rateLimit: { enabled: false },
    advanced: {
      database: { generateId: "uuid" },
      useSecureCookies: config.publicUrl.startsWith("https://"),
      cookiePrefix: "permitrack",
    },
    trustedOrigins: [config.publicUrl],
    plugins: [
      admin({
        ac,
        roles: {
          "super-admin": ac.newRole({ user: ["impersonate"], session: ["revoke"] }),
          "company-admin": none,
          "company-user": none,
          "client-user": none,
        },
        adminRoles: ["super-admin"],
        defaultRole: "company-user",
        impersonationSessionDuration: 60 * 60,
        bannedUserMessage: "Your account is disabled. Please contact your administrator.",
      }),
      // Decision 0011. Our routes in features/auth call these endpoints; the browser never reaches
      // better-auth's own. No trusted devices: every sign-in of an enrolled user asks for a code.
      twoFactor({
        issuer: "Permitrack",
        totpOptions: { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS },
        backupCodeOptions: {
          storeBackupCodes: "encrypted",
          customBackupCodesGenerate: generateRecoveryCodes,
        },
        // The signed cookie that carries a sign-in from the password step to the code step.
        twoFactorCookieMaxAge: 10 * 60,
      }),
    ],
    logger: { disabled: config.NODE_ENV === "test" },
  });
  // Its stores are switched off between calls, so that requests that never reach it do not pay
  // for them (better-auth-calls.ts, decision 0018).
  auth.api = countedApi(auth.api);
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;
