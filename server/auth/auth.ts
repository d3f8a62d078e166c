import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { accounts, sessions, users, verifications } from "../db/schema.ts";
import { hashPassword, verifyPassword } from "./password.ts";

const ac = createAccessControl({ user: ["impersonate"], session: ["revoke"] } as const);
const none = ac.newRole({});

/**
 * better-auth owns password sign-in, database sessions, the signed session cookie and
 * impersonation. What it leaves out (DESIGN.md "known traps") is ours: the forced password reset,
 * per-account rate limits, disabled-user checks on every request, CSRF on our own routes.
 */
export function createAuth(db: Db, config: Config, secret: string) {
  return betterAuth({
    appName: "Permitrack",
    baseURL: config.publicUrl,
    basePath: "/api/auth",
    secret,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      password: { hash: hashPassword, verify: ({ hash, password }) => verifyPassword(hash, password) },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
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
    ],
    logger: { disabled: config.NODE_ENV === "test" },
  });
}

export type Auth = ReturnType<typeof createAuth>;
