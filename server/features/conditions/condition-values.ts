import type { EveryUnit, EvidenceKind, OffsetUnit, ScheduleKind } from "../../../shared/domain/conditions.ts";
import { scheduleBrief, type ScheduleSpec } from "../../../shared/domain/condition-schedule.ts";

/**
 * A condition's values as the services write them (the form's after the server read its local
 * date-time, a template's after its relative dates were made absolute, an import's row).
 */
export interface NewCondition {
  permitId: string;
  title: string;
  description: string | null;
  /** A staff user of the permit's company; null: the permit's responsible person (resolved and stored). */
  ownerUserId: string | null;
  evidence: EvidenceKind;
  schedule: ScheduleKind;
  dueDate: string | null;
  interval: number | null;
  unit: EveryUnit | null;
  startsOn: string | null;
  endsOn: string | null;
  offsetAmount: number | null;
  offsetUnit: OffsetUnit | null;
  milestoneName: string | null;
  /** An instant (ISO string). */
  milestoneAt: string | null;
  eventKind: string | null;
}

/** The columns of permit_conditions a schedule is read from (a row as drizzle or a raw query gives it). */
export interface ConditionScheduleRow {
  schedule: string;
  dueDate: string | null;
  everyInterval: number | null;
  everyUnit: string | null;
  startsOn: string | null;
  endsOn: string | null;
  offsetAmount: number | null;
  offsetUnit: string | null;
  milestoneName: string | null;
  milestoneAt: Date | string | null;
  eventKind: string | null;
}

const iso = (v: Date | string | null) =>
  v === null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString();

/** A stored condition's schedule for condition-schedule.ts. */
export function specOfRow(
  row: ConditionScheduleRow,
): ScheduleSpec & { milestoneName: string | null; eventKind: string | null } {
  return {
    schedule: row.schedule as ScheduleKind,
    dueDate: row.dueDate,
    interval: row.everyInterval,
    unit: row.everyUnit as EveryUnit | null,
    startsOn: row.startsOn,
    endsOn: row.endsOn,
    offsetAmount: row.offsetAmount,
    offsetUnit: row.offsetUnit as OffsetUnit | null,
    milestoneAt: iso(row.milestoneAt),
    milestoneName: row.milestoneName,
    eventKind: row.eventKind,
  };
}

/** The values' schedule for condition-schedule.ts. */
export function specOf(
  c: NewCondition,
): ScheduleSpec & { milestoneName: string | null; eventKind: string | null } {
  return {
    schedule: c.schedule,
    dueDate: c.dueDate,
    interval: c.interval,
    unit: c.unit,
    startsOn: c.startsOn,
    endsOn: c.endsOn,
    offsetAmount: c.offsetAmount,
    offsetUnit: c.offsetUnit,
    milestoneAt: c.milestoneAt,
    milestoneName: c.milestoneName,
    eventKind: c.eventKind,
  };
}

// The audit trail's words (shared/domain/audit-text.ts reads field 'condition' as is and the ISO
// date after ' due ' of field 'task' as the screens show dates).

/** "Inspect erosion controls (Every 7 days)": a condition in the trail. */
export const conditionAuditText = (title: string, spec: Parameters<typeof scheduleBrief>[0]) =>
  `${title} (${scheduleBrief(spec)})`;

/** "Inspect erosion controls due 2026-12-03": a task in the trail (the date shown as Dec 3, 2026). */
export const taskAuditText = (title: string, dueOn: string) => `${title} due ${dueOn}`;
