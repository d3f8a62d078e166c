import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import {
  contacts,
  accounts,
  clients,
  companies,
  permits,
  permitTemplates,
  projects,
  userClients,
  users,
} from "../db/schema.ts";
import type { Auth } from "../auth/auth.ts";
import { hashPassword } from "../auth/password.ts";
import { enrolWithSecret } from "../auth/two-factor.ts";
import { isSuperAdminRole, type Role } from "../../shared/domain/roles.ts";

export const DEFAULT_PASSWORD = "correct-horse-42";
let seq = 0;
const next = () => `${Date.now().toString(36)}${(++seq).toString(36)}`;
let defaultHash: Promise<string> | undefined;

type CompanyRow = typeof companies.$inferSelect;
type UserRow = typeof users.$inferSelect;

/** A TOTP secret like the ones better-auth makes (32 characters, used as bytes). */
export const newTotpSecret = () => randomBytes(16).toString("hex");

/**
 * Factories that write real rows; every one takes overrides and returns the inserted row. With
 * `auth`, users can be enrolled in two-factor sign-in (super-admins are, by default: they must be).
 */
export function factories(db: Db, auth?: Auth) {
  return {
    async company(overrides: Partial<typeof companies.$inferInsert> = {}): Promise<CompanyRow> {
      const n = next();
      const [row] = await db
        .insert(companies)
        .values({ name: `Company ${n}`, slug: `company-${n}`, ...overrides })
        .returning();
      return row!;
    },

    /** A user with a password credential; `password` defaults to DEFAULT_PASSWORD. */
    async user(
      opts: {
        role?: Role;
        companyId?: string | null;
        email?: string;
        password?: string;
        mustResetPassword?: boolean;
        banned?: boolean;
        firstName?: string;
        lastName?: string;
        clientIds?: string[];
        /**
         * Enrol in two-factor sign-in with a known secret (true: a new one). Default: super-admins
         * only, who must use it; `false` leaves a super-admin to enrol at first sign-in.
         */
        twoFactor?: boolean | { secret: string };
      } = {},
    ): Promise<UserRow & { password: string; totpSecret: string | null; recoveryCodes: string[] }> {
      const role = opts.role ?? "company-user";
      if (role !== "super-admin" && !opts.companyId) throw new Error("factories.user: companyId is required");
      const password = opts.password ?? DEFAULT_PASSWORD;
      const hash = opts.password
        ? await hashPassword(password)
        : await (defaultHash ??= hashPassword(DEFAULT_PASSWORD));
      const n = next();
      const firstName = opts.firstName ?? "Test";
      const lastName = opts.lastName ?? `User ${n}`;
      const [user] = await db
        .insert(users)
        .values({
          email: (opts.email ?? `user-${n}@example.com`).toLowerCase(),
          name: `${firstName} ${lastName}`,
          firstName,
          lastName,
          role,
          companyId: role === "super-admin" ? (opts.companyId ?? null) : opts.companyId!,
          mustResetPassword: opts.mustResetPassword ?? false,
          banned: opts.banned ?? false,
          emailVerified: true,
        })
        .returning();
      await db
        .insert(accounts)
        .values({ accountId: user!.id, providerId: "credential", userId: user!.id, password: hash });
      if (opts.clientIds?.length) {
        await db
          .insert(userClients)
          .values(
            opts.clientIds.map((clientId) => ({ userId: user!.id, clientId, companyId: user!.companyId! })),
          );
      }
      const enrol = opts.twoFactor ?? (isSuperAdminRole(role) && !!auth);
      if (!enrol) return { ...user!, password, totpSecret: null, recoveryCodes: [] };
      if (!auth) throw new Error("factories.user: two-factor enrolment needs factories(db, auth)");
      const totpSecret = typeof enrol === "object" ? enrol.secret : newTotpSecret();
      const recoveryCodes = await enrolWithSecret(auth, db, user!.id, totpSecret);
      return { ...user!, twoFactorEnabled: true, password, totpSecret, recoveryCodes };
    },

    async client(companyId: string, name = `Client ${next()}`) {
      const [row] = await db.insert(clients).values({ companyId, name }).returning();
      return row!;
    },

    async project(overrides: Partial<typeof projects.$inferInsert> & { companyId: string }) {
      const n = next();
      const [row] = await db
        .insert(projects)
        .values({ name: `Project ${n}`, projectNumber: `P-${n}`, ...overrides })
        .returning();
      return row!;
    },

    async permit(overrides: Partial<typeof permits.$inferInsert> & { companyId: string }) {
      const n = next();
      let clientId = overrides.clientId;
      if (clientId === undefined && overrides.projectId) {
        const [p] = await db
          .select({ clientId: projects.clientId })
          .from(projects)
          .where(eq(projects.id, overrides.projectId));
        clientId = p?.clientId ?? null;
      }
      const [row] = await db
        .insert(permits)
        .values({
          permitNumber: `PN-${n}`,
          permitName: `Permit ${n}`,
          agency: "City of Test",
          ...overrides,
          clientId,
        })
        .returning();
      return row!;
    },

    async template(overrides: Partial<typeof permitTemplates.$inferInsert> & { companyId: string }) {
      const [row] = await db
        .insert(permitTemplates)
        .values({ name: `Template ${next()}`, agency: "County", ...overrides })
        .returning();
      return row!;
    },

    /** A contact of the company (issue 27); its e-mail unique by default. */
    async contact(overrides: Partial<typeof contacts.$inferInsert> & { companyId: string }) {
      const n = next();
      const [row] = await db
        .insert(contacts)
        .values({
          name: `Contact ${n}`,
          email: `contact-${n}-${randomUUID().slice(0, 6)}@outside.example`,
          ...overrides,
        })
        .returning();
      return row!;
    },

    uuid: () => randomUUID(),
  };
}
export type Factories = ReturnType<typeof factories>;
