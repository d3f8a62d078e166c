import { and, eq, inArray } from "drizzle-orm";
import { localDateTimeToInstant } from "../../../shared/domain/condition-schedule.ts";
import type { ConditionInput } from "../../../shared/schemas/conditions.ts";
import type { Db } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import { validation } from "../../errors.ts";
import type { NewCondition } from "./condition-values.ts";

export const OWNER_NOT_STAFF = "The owner must be an active staff user of this company.";

/** An event kind as stored: trimmed, spaces folded (matched case-insensitively, eventKindKey). */
export const storedEventKind = (kind: string | null) => (kind ? kind.trim().replace(/\s+/g, " ") : null);

/**
 * The form's values as a condition's: only the fields of its schedule kept (the others null), the
 * milestone's local date-time read in the company's zone.
 */
export function newConditionOf(input: ConditionInput, permitId: string, timeZone: string): NewCondition {
  const s = input.schedule;
  const event = s === "before_event" || s === "after_event";
  return {
    permitId,
    title: input.title,
    description: input.description ?? null,
    ownerUserId: input.ownerUserId ?? null,
    evidence: input.evidence,
    schedule: s,
    dueDate: s === "once" ? (input.dueDate ?? null) : null,
    interval: s === "every" ? (input.interval ?? null) : null,
    unit: s === "every" ? (input.unit ?? null) : null,
    startsOn: s === "every" ? (input.startsOn ?? null) : null,
    endsOn: s === "every" ? (input.endsOn ?? null) : null,
    offsetAmount: event ? (input.offsetAmount ?? null) : null,
    offsetUnit: event ? (input.offsetUnit ?? null) : null,
    milestoneName: s === "before_event" ? (input.milestoneName ?? null) : null,
    milestoneAt:
      s === "before_event" && input.milestoneAt ? localDateTimeToInstant(input.milestoneAt, timeZone) : null,
    eventKind: s === "after_event" ? storedEventKind(input.eventKind ?? null) : null,
  };
}

/** An owner must be an active staff user (company admin or user) of the permit's company: 400 otherwise. */
export async function checkOwner(tx: Db, companyId: string, ownerUserId: string | null): Promise<void> {
  if (!ownerUserId) return;
  const [owner] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, ownerUserId),
        eq(users.companyId, companyId),
        inArray(users.role, ["company-admin", "company-user"]),
        eq(users.banned, false),
      ),
    );
  if (!owner) throw validation({ ownerUserId: OWNER_NOT_STAFF });
}
