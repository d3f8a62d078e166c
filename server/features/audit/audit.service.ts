import { and, desc, eq, isNull, ne, or } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { permitAudit } from "../../db/schema.ts";
import type { AuditEntry } from "../../../shared/schemas/audit.ts";
import { COMMENT_AUDIT_ACTION, INTERNAL_COMMENT_AUDIT_FIELD } from "../../audit/audit-writer.ts";

/**
 * A permit's audit trail, newest first by insertion order (timestamps of one transaction are equal,
 * and PGlite's clock can give quick successive writes the same one too).
 */
export async function listPermitAudit(
  db: Db,
  permitId: string,
  opts: { includeInternalComments: boolean },
): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(permitAudit)
    .where(
      and(
        eq(permitAudit.permitId, permitId),
        opts.includeInternalComments
          ? undefined
          : or(
              ne(permitAudit.action, COMMENT_AUDIT_ACTION),
              isNull(permitAudit.field),
              ne(permitAudit.field, INTERNAL_COMMENT_AUDIT_FIELD),
            ),
      ),
    )
    // Insertion order: a change's entries (an upload after the archiving it caused) keep theirs.
    .orderBy(desc(permitAudit.seq));
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    field: r.field,
    oldValue: r.oldValue,
    newValue: r.newValue,
    userName: r.userName,
    impersonatorName: r.impersonatorName,
    timestamp: r.timestamp.toISOString(),
  }));
}
