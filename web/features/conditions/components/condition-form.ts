import {
  EVERY_UNIT_LABELS,
  EVERY_UNITS,
  EVIDENCE_KINDS,
  EVIDENCE_LABELS,
  OFFSET_UNIT_LABELS,
  OFFSET_UNITS,
  SCHEDULE_KINDS,
  SCHEDULE_LABELS,
  type EveryUnit,
  type EvidenceKind,
  type OffsetUnit,
  type ScheduleKind,
} from "../../../../shared/domain/conditions.ts";
import type { Condition, ConditionInput } from "../../../../shared/schemas/conditions.ts";

/**
 * The 'Add Condition' form's values: what is typed, as text. The body (ConditionInputSchema) is
 * made of them by `conditionBody`, which sends only the chosen schedule's fields (the others null),
 * so a number left blank reads "Interval is required", not "must be at least 1".
 */
export interface ConditionValues {
  title: string;
  description: string;
  /** "" is the permit's responsible person (the server stores whom it resolves to). */
  ownerUserId: string;
  evidence: EvidenceKind;
  schedule: ScheduleKind;
  dueDate: string;
  interval: string;
  unit: EveryUnit | "";
  startsOn: string;
  endsOn: string;
  offsetAmount: string;
  offsetUnit: OffsetUnit | "";
  milestoneName: string;
  milestoneAt: string;
  eventKind: string;
}

export const FIELD_NAMES: (keyof ConditionValues)[] = [
  "title",
  "description",
  "ownerUserId",
  "evidence",
  "schedule",
  "dueDate",
  "interval",
  "unit",
  "startsOn",
  "endsOn",
  "offsetAmount",
  "offsetUnit",
  "milestoneName",
  "milestoneAt",
  "eventKind",
];

export const emptyCondition = (today: string): ConditionValues => ({
  title: "",
  description: "",
  ownerUserId: "",
  evidence: "none",
  schedule: "once",
  dueDate: "",
  interval: "1",
  unit: "weeks",
  startsOn: today,
  endsOn: "",
  offsetAmount: "",
  offsetUnit: "hours",
  milestoneName: "",
  milestoneAt: "",
  eventKind: "",
});

/** A saved condition as the form shows it (editing). */
export const conditionValues = (c: Condition, today: string): ConditionValues => ({
  ...emptyCondition(today),
  title: c.title,
  description: c.description ?? "",
  ownerUserId: c.owner?.id ?? "",
  evidence: c.evidence,
  schedule: c.schedule,
  dueDate: c.dueDate ?? "",
  interval: c.interval === null ? "1" : String(c.interval),
  unit: c.unit ?? "weeks",
  startsOn: c.startsOn ?? today,
  endsOn: c.endsOn ?? "",
  offsetAmount: c.offsetAmount === null ? "" : String(c.offsetAmount),
  offsetUnit: c.offsetUnit ?? "hours",
  milestoneName: c.milestoneName ?? "",
  milestoneAt: c.milestoneAt ?? "",
  eventKind: c.eventKind ?? "",
});

const text = (v: string) => (v.trim() === "" ? null : v);
const number = (v: string) => (v.trim() === "" ? null : Number.isFinite(Number(v)) ? Number(v) : v.trim());

/** The API's body: the chosen schedule's fields, the others null. */
export function conditionBody(v: ConditionValues): ConditionInput {
  const s = v.schedule;
  const offset = s === "before_event" || s === "after_event";
  return {
    title: v.title,
    description: text(v.description),
    ownerUserId: text(v.ownerUserId),
    evidence: v.evidence,
    schedule: s,
    dueDate: s === "once" ? text(v.dueDate) : null,
    interval: s === "every" ? (number(v.interval) as unknown as number) : null,
    unit: s === "every" ? v.unit || null : null,
    startsOn: s === "every" ? text(v.startsOn) : null,
    endsOn: s === "every" ? text(v.endsOn) : null,
    offsetAmount: offset ? (number(v.offsetAmount) as unknown as number) : null,
    offsetUnit: offset ? v.offsetUnit || null : null,
    milestoneName: s === "before_event" ? text(v.milestoneName) : null,
    milestoneAt: s === "before_event" ? text(v.milestoneAt) : null,
    eventKind: s === "after_event" ? text(v.eventKind) : null,
  };
}

const options = <K extends string>(keys: readonly K[], labels: Record<K, string>) =>
  keys.map((value) => ({ value, label: labels[value] }));
export const EVIDENCE_OPTIONS = options(EVIDENCE_KINDS, EVIDENCE_LABELS);
export const SCHEDULE_OPTIONS = options(SCHEDULE_KINDS, SCHEDULE_LABELS);
export const UNIT_OPTIONS = options(EVERY_UNITS, EVERY_UNIT_LABELS);
export const OFFSET_UNIT_OPTIONS = options(OFFSET_UNITS, OFFSET_UNIT_LABELS);
