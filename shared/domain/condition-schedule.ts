import type { EveryUnit, OffsetUnit, ScheduleKind } from "./conditions.ts";

// Issue 29: the schedule arithmetic of conditions, pure and shared (the server makes tasks with it;
// the form previews the next due date). All calendar arithmetic is on company-local dates and
// date-times: "every 7 days" is 7 calendar days across a DST change, never 168 hours; "monthly from
// the 31st" falls on the last day of shorter months (each occurrence from the anchor, never chained).
// OWNER: helper i29-core implements; the signatures are the contract.

export interface ScheduleSpec {
  schedule: ScheduleKind;
  dueDate: string | null;
  interval: number | null;
  unit: EveryUnit | null;
  startsOn: string | null;
  endsOn: string | null;
  offsetAmount: number | null;
  offsetUnit: OffsetUnit | null;
  /** An instant (ISO string). */
  milestoneAt: string | null;
}

export interface TaskDue {
  /** The n-th occurrence of an 'every' schedule; 0 for once and before_event; null for after_event. */
  occurrence: number | null;
  /** The instant the task becomes overdue (ISO string). */
  dueAt: string;
  /** Its company-local date. */
  dueOn: string;
  /** Due at a time (events) rather than by the end of a day. */
  timed: boolean;
}

/** The instant a company-local date ends (its next day's local midnight): a dated task's due_at. */
export function endOfLocalDay(date: string, timeZone: string): string {
  void date;
  void timeZone;
  throw new Error("condition-schedule: not implemented yet");
}

/** A local date-time "YYYY-MM-DDTHH:mm" in a zone as an instant (ISO string); the later one in a DST gap. */
export function localDateTimeToInstant(local: string, timeZone: string): string {
  void local;
  void timeZone;
  throw new Error("condition-schedule: not implemented yet");
}

/** An instant as a local date-time "YYYY-MM-DDTHH:mm" in a zone (the form's value). */
export function instantToLocalDateTime(instant: string, timeZone: string): string {
  void instant;
  void timeZone;
  throw new Error("condition-schedule: not implemented yet");
}

/** The n-th (from 0) occurrence date of an 'every' schedule. */
export function occurrenceDate(spec: ScheduleSpec, n: number): string {
  void spec;
  void n;
  throw new Error("condition-schedule: not implemented yet");
}

/**
 * The first task of a new (or edited) condition: once → its due date; every → the first occurrence
 * on or after `today` (none past ends_on); before_event → offset before the milestone; after_event →
 * null (events make its tasks).
 */
export function firstTask(spec: ScheduleSpec, timeZone: string, today: string): TaskDue | null {
  void spec;
  void timeZone;
  void today;
  throw new Error("condition-schedule: not implemented yet");
}

/** The task after occurrence n of an 'every' schedule (completing one makes it); null past ends_on. */
export function nextTask(spec: ScheduleSpec, timeZone: string, afterOccurrence: number): TaskDue | null {
  void spec;
  void timeZone;
  void afterOccurrence;
  throw new Error("condition-schedule: not implemented yet");
}

/** An after_event condition's task for an event at `occurredAt` (an instant): due offset after it. */
export function eventTask(spec: ScheduleSpec, timeZone: string, occurredAt: string): TaskDue {
  void spec;
  void timeZone;
  void occurredAt;
  throw new Error("condition-schedule: not implemented yet");
}

/** The schedule in words: "Every 7 days from Dec 1, 2026", "48 hours before Pour", "Within 24 hours of Rain ≥ 0.25 in". */
export function describeSchedule(
  spec: ScheduleSpec & { milestoneName: string | null; eventKind: string | null },
  timeZone: string,
): string {
  void spec;
  void timeZone;
  throw new Error("condition-schedule: not implemented yet");
}
