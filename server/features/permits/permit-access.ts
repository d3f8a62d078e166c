import { and, eq } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { permits } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import { permitScope } from "./permit-view.query.ts";

export type PermitRow = typeof permits.$inferSelect;

/**
 * Loads a permit the actor may see, or throws 404: another company's permit, and for a
 * client-user a permit of a client outside its list, are indistinguishable from a missing one.
 * Comments, attachments, audit and reminders all reach a permit through this.
 */
export async function findVisiblePermit(
  db: Db,
  actor: Actor,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<PermitRow> {
  const query = db
    .select()
    .from(permits)
    .where(and(eq(permits.id, id), permitScope(actor)));
  // Inside a transaction that changes the permit: the row lock keeps the audit's old values true.
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  if (!row) throw notFound("Permit");
  return row;
}
