import { randomBytes } from "node:crypto";
import type { Config } from "../config.ts";
import { countUsers, createAccount } from "../auth/accounts.ts";
import type { Db } from "../db/client.ts";

/**
 * On an empty database, creates the first super-admin: from ADMIN_EMAIL/ADMIN_PASSWORD, or with a
 * generated password that is printed once and must be changed at first sign-in.
 */
export async function ensureFirstSuperAdmin(
  db: Db,
  config: Config,
  print: (line: string) => void,
): Promise<{ email: string; generatedPassword: string | null } | null> {
  if ((await countUsers(db)) > 0) return null;
  const email = (config.ADMIN_EMAIL ?? "admin@permitrack.local").toLowerCase();
  const generated = config.ADMIN_PASSWORD ? null : randomBytes(12).toString("base64url");
  await createAccount(db, {
    email,
    password: config.ADMIN_PASSWORD ?? generated!,
    role: "super-admin",
    companyId: null,
    firstName: "Platform",
    lastName: "Admin",
    mustResetPassword: generated !== null,
  });
  if (generated) {
    print(
      [
        "",
        "  First start: created the super-admin account (shown only once):",
        `    e-mail:   ${email}`,
        `    password: ${generated}`,
        "  At first sign-in you will choose a new password and set up two-factor authentication.",
        "",
      ].join("\n"),
    );
  } else {
    print(
      `First start: created the super-admin ${email} from ADMIN_EMAIL/ADMIN_PASSWORD; two-factor authentication is set up at first sign-in.`,
    );
  }
  return { email, generatedPassword: generated };
}
