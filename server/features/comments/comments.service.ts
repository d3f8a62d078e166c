import { and, asc, eq } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { comments, permits } from "../../db/schema.ts";
import {
  builtOnceForViewer,
  visiblePermitCondition,
  visiblePermitKey,
  visiblePermitOf,
  visiblePermitParams,
} from "../permits/index.ts";
import type { Comment } from "../../../shared/schemas/comments.ts";
import {
  COMMENT_AUDIT_ACTION,
  COMMENT_AUDIT_FIELD,
  INTERNAL_COMMENT_AUDIT_FIELD,
  recordPermitAudit,
} from "../../audit/audit-writer.ts";

type CommentRow = typeof comments.$inferSelect;

const present = (r: CommentRow): Comment => ({
  id: r.id,
  text: r.text,
  userName: r.userName,
  isInternal: r.isInternal,
  createdAt: r.createdAt.toISOString(),
});

/**
 * A permit's comments, oldest first, with the permit (for its policy) in one statement, built once
 * per shape of scope and comment visibility: internal ones only when the actor may read them; 404
 * when the actor may not see the permit.
 */
export async function listVisibleComments(db: Db, actor: Actor, permitId: string) {
  const statement = builtOnceForViewer(db, actor, "permit_comments", (name, internal) =>
    db
      .select({ ...visiblePermitKey, comment: comments })
      .from(permits)
      .leftJoin(
        comments,
        and(eq(comments.permitId, permits.id), internal ? undefined : eq(comments.isInternal, false)),
      )
      .where(visiblePermitCondition(actor))
      .orderBy(asc(comments.createdAt), asc(comments.id))
      .prepare(name),
  );
  const rows = await statement.execute(visiblePermitParams(actor, permitId));
  return {
    permit: visiblePermitOf(rows),
    comments: rows.flatMap((r) => (r.comment ? [present(r.comment)] : [])),
  };
}

/** Adds a comment and its audit entry in one transaction. */
export async function addComment(
  db: Db,
  actor: Actor,
  permit: { id: string; companyId: string },
  input: { text: string; isInternal: boolean },
): Promise<Comment> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(comments)
      .values({
        permitId: permit.id,
        companyId: permit.companyId,
        userId: actor.userId,
        userName: actor.name,
        text: input.text,
        isInternal: input.isInternal,
      })
      .returning();
    await recordPermitAudit(tx, actor, permit, [
      {
        action: COMMENT_AUDIT_ACTION,
        field: input.isInternal ? INTERNAL_COMMENT_AUDIT_FIELD : COMMENT_AUDIT_FIELD,
        newValue: input.text,
        internal: input.isInternal,
      },
    ]);
    return present(row!);
  });
}
