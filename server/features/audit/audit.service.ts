import { and, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { permitAudit, permits } from "../../db/schema.ts";
import type { Actor } from "../../access/actor.ts";
import { canViewCollateral } from "../../access/policies/bond.ts";
import {
  builtOnceForViewer,
  visiblePermitCondition,
  visiblePermitKey,
  visiblePermitOf,
  visiblePermitParams,
} from "../permits/index.ts";
import type { AuditEntry } from "../../../shared/schemas/audit.ts";
import { DEFAULT_CURRENCY } from "../../../shared/domain/bonds.ts";
import { permitCurrency, referenceNames } from "./audit-names.ts";
import { COMMENT_AUDIT_ACTION, INTERNAL_COMMENT_AUDIT_FIELD } from "../../audit/audit-writer.ts";

/**
 * The action of the entries 'Add Collateral' and 'Release Collateral' write (the bonds feature's
 * collateral.service.ts): their values name the collateral's form, amount and dates.
 */
const COLLATERAL_AUDIT_ACTION = "collateral";

/**
 * Whether an entry records something staff-only (issue 25): its `internal` flag, or, for an entry
 * written before the flag existed (null; audit rows are never updated), its kind: an internal
 * comment, and a renewal's fee or note or an extension's reason, which migration 0013 made internal
 * like the notes themselves.
 */
const internalEntry = sql<boolean>`coalesce(${permitAudit.internal}, ${or(
  and(eq(permitAudit.action, COMMENT_AUDIT_ACTION), eq(permitAudit.field, INTERNAL_COMMENT_AUDIT_FIELD)),
  and(eq(permitAudit.action, "renew"), inArray(permitAudit.field, ["note", "renewal_fee"])),
  and(eq(permitAudit.action, "extend"), eq(permitAudit.field, "reason")),
)}, false)`;

/**
 * A permit's audit trail, newest first by insertion order (timestamps of one transaction are equal,
 * and PGlite's clock can give quick successive writes the same one too), with the permit (for its
 * policy) in one statement, built once per shape of scope, comment visibility and collateral
 * visibility; 404 when the actor may not see the permit. The text of an internal comment is in its
 * audit entry, so it is withheld from whoever may not read internal comments; a collateral entry
 * names the collateral, so it is withheld from whoever may not see collateral (canViewCollateral).
 * The same for the entries of internal renewal fees and notes and extension reasons (issue 25,
 * internalEntry). All in the statement itself: the rows never leave the database.
 */
export async function listVisiblePermitAudit(db: Db, actor: Actor, permitId: string) {
  const collateral = canViewCollateral(actor);
  const what = collateral ? "permit_audit+collateral" : "permit_audit";
  const statement = builtOnceForViewer(db, actor, what, (name, internal) =>
    db
      .select({
        ...visiblePermitKey,
        entry: permitAudit,
        internal: internalEntry,
        // Issue 25: the names its ids point at and the currency its amounts are in (audit-names.ts).
        ...referenceNames(actor),
        currency: permitCurrency,
      })
      .from(permits)
      .leftJoin(
        permitAudit,
        and(
          eq(permitAudit.permitId, permits.id),
          internal ? undefined : sql`not ${internalEntry}`,
          collateral ? undefined : ne(permitAudit.action, COLLATERAL_AUDIT_ACTION),
        ),
      )
      .where(visiblePermitCondition(actor))
      // Insertion order: a change's entries (an upload after the archiving it caused) keep theirs.
      .orderBy(desc(permitAudit.seq))
      .prepare(name),
  );
  const rows = await statement.execute(visiblePermitParams(actor, permitId));
  const entries: AuditEntry[] = [];
  for (const { entry: r, internal, oldName, newName } of rows) {
    if (!r) continue;
    entries.push({
      id: r.id,
      action: r.action,
      field: r.field,
      oldValue: r.oldValue,
      newValue: r.newValue,
      oldName,
      newName,
      userName: r.userName,
      impersonatorName: r.impersonatorName,
      internal: !!internal,
      source: r.source,
      timestamp: r.timestamp.toISOString(),
    });
  }
  return { permit: visiblePermitOf(rows), entries, currency: rows[0]?.currency ?? DEFAULT_CURRENCY };
}
