import { sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Actor } from "../../access/actor.ts";
import { canReadInternalComments } from "../../access/policies/comment.ts";

// SQL pieces the permit queries share: a user's display name and a permit's comment count.

/** "First Last", else the e-mail, as SQL over a users table (or an alias of it). */
export const userNameSql = (u: { firstName: PgColumn; lastName: PgColumn; email: PgColumn }) =>
  sql<string>`coalesce(nullif(btrim(${u.firstName} || ' ' || ${u.lastName}), ''), ${u.email})`;

/**
 * The per-row comment count of the list and the detail: a client-user never counts internal ones.
 * Written with qualified names: drizzle leaves columns unqualified in single-table selects, and an
 * unqualified "id" would resolve to comments.id here.
 */
export function commentCountColumn(actor: Actor) {
  return commentCountSql(canReadInternalComments(actor));
}
export const commentCountSql = (readsInternalComments: boolean) =>
  sql<number>`(select count(*)::int from comments c where c.permit_id = "permits"."id"${
    readsInternalComments ? sql`` : sql` and not c.is_internal`
  })`;
