import { and, asc, count, eq, sql } from "drizzle-orm";
import { userIdOf, type Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { savedViews, users } from "../../db/schema.ts";
import { conflict, notFound, validation } from "../../errors.ts";
import { SAVED_VIEWS_MAX, type SavedViewParams } from "../../../shared/domain/permit-list.ts";
import type { SavedView, SavedViewInput } from "../../../shared/schemas/saved-views.ts";

export type SavedViewRow = typeof savedViews.$inferSelect;

/** Row to response. */
export function presentSavedView(row: SavedViewRow): SavedView {
  return {
    id: row.id,
    name: row.name,
    params: row.params as SavedViewParams,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The actor's own views by name: the only query there is on the table is by owner. */
export async function listSavedViews(db: Db, actor: Actor): Promise<SavedViewRow[]> {
  return db
    .select()
    .from(savedViews)
    .where(eq(savedViews.userId, userIdOf(actor)))
    .orderBy(sql`lower(${savedViews.name})`, asc(savedViews.id));
}

/** One of the actor's own views, else 404 (another user's view is simply not there). */
export async function findOwnSavedView(db: Db, actor: Actor, id: string): Promise<SavedViewRow> {
  const [row] = await db
    .select()
    .from(savedViews)
    .where(and(eq(savedViews.id, id), eq(savedViews.userId, userIdOf(actor))));
  if (!row) throw notFound("View");
  return row;
}

function nameTaken(name: string) {
  const message = `You already have a view named "${name}".`;
  return conflict(message, { name: message });
}

/** The unique index (user, lower(name)) settles races the same way. */
const nameConflict = (name: string | undefined) => (err: unknown) => {
  if (name !== undefined && uniqueViolation(err) === "saved_views_user_name_uq") throw nameTaken(name);
  throw err;
};

/**
 * Saves a new view for the actor; at most SAVED_VIEWS_MAX per user, names unique per user. The
 * owner's user row is locked before counting, so parallel saves of one user count one after the
 * other (each sees the views the ones before it committed) and none goes past the limit. The lock
 * is FOR NO KEY UPDATE: it queues the owner's saves without blocking inserts that only reference
 * the user (sessions, audit rows).
 */
export async function createSavedView(db: Db, actor: Actor, input: SavedViewInput): Promise<SavedViewRow> {
  return db
    .transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userIdOf(actor))).for("no key update");
      const [held] = await tx
        .select({ n: count() })
        .from(savedViews)
        .where(eq(savedViews.userId, userIdOf(actor)));
      if ((held?.n ?? 0) >= SAVED_VIEWS_MAX) {
        throw validation(
          { name: `You can keep at most ${SAVED_VIEWS_MAX} views; delete one first.` },
          `You can keep at most ${SAVED_VIEWS_MAX} views; delete one first.`,
        );
      }
      const [row] = await tx
        .insert(savedViews)
        .values({
          userId: userIdOf(actor),
          companyId: actor.companyId,
          name: input.name,
          params: input.params,
        })
        .returning();
      return row!;
    })
    .catch(nameConflict(input.name));
}

/** Renames a view or replaces its filters. */
export async function updateSavedView(
  db: Db,
  view: SavedViewRow,
  input: { name?: string; params?: SavedViewParams },
): Promise<SavedViewRow> {
  const [row] = await db
    .update(savedViews)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.params !== undefined ? { params: input.params } : {}),
    })
    .where(eq(savedViews.id, view.id))
    .returning()
    .catch(nameConflict(input.name));
  if (!row) throw notFound("View");
  return row;
}

export async function deleteSavedView(db: Db, view: SavedViewRow): Promise<void> {
  await db.delete(savedViews).where(eq(savedViews.id, view.id));
}
