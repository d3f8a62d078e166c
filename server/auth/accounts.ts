import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../db/client.ts";
import { accounts, users } from "../db/schema.ts";
import type { Role } from "../../shared/domain/roles.ts";
import { hashPassword } from "./password.ts";

export interface NewAccount {
  email: string;
  password: string;
  role: Role;
  companyId: string | null;
  firstName: string;
  lastName: string;
  phone?: string | null;
  title?: string | null;
  mustResetPassword?: boolean;
}

/** Creates a user with a password credential (better-auth's "credential" account) in `tx`. */
export async function createAccount(tx: Db, a: NewAccount) {
  const passwordHash = await hashPassword(a.password);
  const email = a.email.trim().toLowerCase();
  const [user] = await tx
    .insert(users)
    .values({
      email,
      name: `${a.firstName} ${a.lastName}`.trim() || email,
      role: a.role,
      companyId: a.companyId,
      firstName: a.firstName,
      lastName: a.lastName,
      phone: a.phone ?? null,
      title: a.title ?? null,
      mustResetPassword: a.mustResetPassword ?? false,
      emailVerified: true,
    })
    .returning();
  await tx
    .insert(accounts)
    .values({ accountId: user!.id, providerId: "credential", userId: user!.id, password: passwordHash });
  return user!;
}

export async function countUsers(db: Db): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from users`);
  return Number(row!.n);
}
