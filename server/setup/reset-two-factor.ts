import { eq } from "drizzle-orm";
import { recordEvent } from "../audit/audit-writer.ts";
import { removeTwoFactor } from "../auth/two-factor.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { users } from "../db/schema.ts";

/**
 * `npm run two-factor:reset -- <e-mail>`: the operator's reset of one user's two-factor sign-in,
 * for when no admin can do it in the app (the only super-admin lost the phone, or SESSION_SECRET
 * was lost and no enrolled super-admin can sign in: docs/SECURITY.md, "Rotating SESSION_SECRET").
 * The same reset as Admin > Users: the secret and recovery codes go, the user's sessions end, the
 * next sign-in asks for a new enrolment where it is required. Audited as the operator. On the
 * embedded database, with the server stopped (one process per data directory).
 */
async function main() {
  const email = process.argv[2]?.trim().toLowerCase();
  if (!email) throw new Error("Usage: npm run two-factor:reset -- <e-mail of the user>");
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const [user] = await database.db.select().from(users).where(eq(users.email, email));
    if (!user) throw new Error(`No user has the e-mail ${email}.`);
    const removed = await database.db.transaction(async (tx) => {
      const had = await removeTwoFactor(tx, user.id);
      const operator = {
        userId: null,
        name: "Operator (command line)",
        companyId: user.companyId,
        impersonatorId: null,
        impersonatorName: null,
      };
      await recordEvent(tx, operator, {
        action: "user.two_factor_reset",
        entityType: "user",
        entityId: user.id,
        details: { email, by: "command line" },
      });
      return had;
    });
    console.log(
      removed
        ? `Two-factor sign-in of ${email} was reset; their sessions ended. They set it up again at the next sign-in.`
        : `${email} had no two-factor sign-in to reset; their sessions ended.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
