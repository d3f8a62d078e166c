import { sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Actor } from "../../access/actor.ts";
import { canReadInternalComments } from "../../access/policies/comment.ts";
import { TASKS_DUE_DAYS } from "../../../shared/domain/conditions.ts";

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

/** A permit's open condition tasks in brief as the list and the export read them (issue 29). */
export interface TaskCountsRow {
  open: number;
  overdue: number;
  due: number;
  nextDueOn: string | null;
}

/**
 * Issue 29: the open condition tasks of the permit in brief, one JSON object per row (TaskCounts):
 * how many are open, overdue (due_at passed), due within TASKS_DUE_DAYS days of today in the
 * company's zone (overdue included), and the earliest due date. Parameter-free (the list reuses its
 * text): `zone` is SQL text naming the company's time zone column of the outer query; the permit is
 * "permits"."id". One index lookup per row on condition_tasks_permit_idx.
 */
export const taskCountsSql = (zone: string) =>
  sql<TaskCountsRow>`(select json_build_object('open', count(*)::int,
    'overdue', (count(*) filter (where ct.due_at < now()))::int,
    'due', (count(*) filter (where ct.due_on <= (now() at time zone ${sql.raw(zone)})::date + ${sql.raw(String(TASKS_DUE_DAYS))}))::int,
    'nextDueOn', min(ct.due_on)::text)
    from condition_tasks ct where ct.permit_id = "permits"."id" and ct.status = 'open')`;
