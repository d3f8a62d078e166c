import type { Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { auditEvents, permitAudit } from "../../db/schema.ts";

type Stringable = string | number | boolean | null | undefined;
const str = (v: Stringable) => (v === null || v === undefined || v === "" ? null : String(v));

export interface PermitAuditEntry {
  action: string;
  field?: string | null;
  oldValue?: Stringable;
  newValue?: Stringable;
}

/**
 * The one way to write the permit audit trail: it needs the actor (and so the impersonator),
 * and takes the transaction of the change it records. Audit rows are never updated or deleted.
 */
export async function recordPermitAudit(
  tx: Db,
  actor: Actor,
  permit: { id: string; companyId: string },
  entries: PermitAuditEntry[],
): Promise<void> {
  if (!entries.length) return;
  await tx.insert(permitAudit).values(
    entries.map((e) => ({
      companyId: permit.companyId,
      permitId: permit.id,
      userId: actor.userId,
      userName: actor.name,
      impersonatorId: actor.impersonatorId,
      impersonatorName: actor.impersonatorName,
      action: e.action,
      field: e.field ?? null,
      oldValue: str(e.oldValue),
      newValue: str(e.newValue),
    })),
  );
}

/** Records an event that is not about a permit (users, companies, settings, impersonation). */
export async function recordEvent(
  tx: Db,
  actor: Pick<Actor, "userId" | "name" | "companyId" | "impersonatorId" | "impersonatorName">,
  event: { action: string; entityType: string; entityId?: string | null; companyId?: string | null; details?: unknown },
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
