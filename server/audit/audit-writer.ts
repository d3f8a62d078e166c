import { AsyncLocalStorage } from "node:async_hooks";
import { sql, type SQL } from "drizzle-orm";
import type { Actor } from "../access/actor.ts";
import type { Db } from "../db/client.ts";
import { auditEvents } from "../db/schema.ts";

type Stringable = string | number | boolean | null | undefined;
const str = (v: Stringable) => (v === null || v === undefined || v === "" ? null : String(v));

export interface PermitAuditEntry {
  action: string;
  field?: string | null;
  oldValue?: Stringable;
  newValue?: Stringable;
  /**
   * The entry records something staff-only (an internal comment, renewal fee or note, extension
   * reason; issue 25): a client-user's audit trail leaves it out. Unset: false.
   */
  internal?: boolean;
  /**
   * Where the value came from when it was not typed (issue 28): "from document permit.pdf, page 1"
   * on the entries written by accepting a document's suggestion. Unset: the current
   * withAuditSource()'s, else none.
   */
  source?: string | null;
}

/** The source of the entries written inside withAuditSource(), per entry (by its field). */
type SourceOf = (entry: PermitAuditEntry) => string | null;
const auditSource = new AsyncLocalStorage<SourceOf>();
let sourcesInFlight = 0;

/**
 * Runs `fn` so that every permit audit entry it writes (through any writer: the permit's edit, the
 * ledger's, the lifecycle's) carries the source `sourceOf` gives it: accepting a document's
 * suggestions saves through the normal writes, and the trail says which document and page.
 */
export async function withAuditSource<T>(sourceOf: SourceOf, fn: () => Promise<T>): Promise<T> {
  sourcesInFlight++;
  try {
    return await auditSource.run(sourceOf, fn);
  } finally {
    // Before Node 24 an enabled store keeps a promise hook on that every promise pays for (decision
    // 0018): switched off again once no accept is in flight (a run() turns it back on).
    if (--sourcesInFlight === 0) auditSource.disable();
  }
}

/**
 * Who an audit entry names: a signed-in actor, or someone without an account acting through a link
 * (an outside party answering a document request, issue 27: `userId` null, the name as the trail
 * shows it, "Jane Roe (Acme Surety) via request link").
 */
export type AuditActor = Pick<Actor, "name" | "impersonatorId" | "impersonatorName"> & {
  userId: string | null;
};

/** An outside party acting through a link: no user, no impersonator. */
export const linkActor = (name: string): AuditActor => ({
  userId: null,
  name,
  impersonatorId: null,
  impersonatorName: null,
});

/**
 * The one way to write the permit audit trail: it needs the actor (and so the impersonator),
 * and takes the transaction of the change it records. Audit rows are never updated or deleted.
 */
export async function recordPermitAudit(
  tx: Db,
  actor: Actor | AuditActor,
  permit: { id: string; companyId: string },
  entries: PermitAuditEntry[],
): Promise<void> {
  await recordPermitAuditMany(tx, actor, [{ permit, entries }]);
}

/**
 * The same for many permits at once (imports, bulk changes): one statement whatever the count, the
 * rows travelling as one JSON parameter (building 10,000 rows of bind parameters costs more CPU
 * than the insert itself).
 */
export async function recordPermitAuditMany(
  tx: Db,
  actor: Actor | AuditActor,
  items: { permit: { id: string; companyId: string }; entries: PermitAuditEntry[] }[],
): Promise<void> {
  const insert = permitAuditInsert(actor, items);
  if (insert) await tx.execute(insert);
}

/**
 * The INSERT that recordPermitAuditMany runs, for a writer that folds it into a statement of its
 * own (a data-modifying WITH: the bond ledger's writer); null when there is nothing to record.
 */
export function permitAuditInsert(
  actor: Actor | AuditActor,
  items: { permit: { id: string; companyId: string }; entries: PermitAuditEntry[] }[],
): SQL | null {
  const rows = items.flatMap(({ permit, entries }) =>
    entries.map((e) => ({
      company_id: permit.companyId,
      permit_id: permit.id,
      action: e.action,
      field: e.field ?? null,
      old_value: str(e.oldValue),
      new_value: str(e.newValue),
      internal: e.internal ?? false,
      source: e.source ?? auditSource.getStore()?.(e) ?? null,
    })),
  );
  if (!rows.length) return null;
  return sql`
    insert into permit_audit (company_id, permit_id, user_id, user_name, impersonator_id, impersonator_name, action, field, old_value, new_value, internal, source)
    select r.company_id, r.permit_id, ${actor.userId}, ${actor.name}, ${actor.impersonatorId}, ${actor.impersonatorName},
           r.action, r.field, r.old_value, r.new_value, r.internal, r.source
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as r(company_id uuid, permit_id uuid, action text, field text, old_value text, new_value text, internal boolean, source text)`;
}

/** Records an event that is not about a permit (users, companies, settings, impersonation). */
export async function recordEvent(
  tx: Db,
  /** A user; or, with `userId: null`, the operator at the command line (npm run two-factor:reset). */
  actor: Pick<Actor, "name" | "companyId" | "impersonatorId" | "impersonatorName"> & {
    userId: string | null;
  },
  event: {
    action: string;
    entityType: string;
    entityId?: string | null;
    companyId?: string | null;
    details?: unknown;
  },
): Promise<void> {
  await tx.insert(auditEvents).values({
    companyId: event.companyId === undefined ? actor.companyId : event.companyId,
    actorId: actor.userId,
    actorName: actor.name,
    impersonatorId: actor.impersonatorId,
    impersonatorName: actor.impersonatorName,
    action: event.action,
    entityType: event.entityType,
    entityId: event.entityId ?? null,
    details: event.details ?? null,
  });
}

/** A comment's audit entry; an internal comment's entry is hidden from client-users like the comment itself. */
export const COMMENT_AUDIT_ACTION = "comment";
export const COMMENT_AUDIT_FIELD = "comment";
export const INTERNAL_COMMENT_AUDIT_FIELD = "internal comment";
