import type { EveryUnit, OffsetUnit, ScheduleKind } from "./conditions.ts";
import { addDays, daysBetween } from "./dates.ts";
import { DISPLAY_LOCALE, formatDate } from "./format.ts";

// Issue 29: the schedule arithmetic of conditions, pure and shared (the server makes tasks with it;
// the form previews the next due date). All calendar arithmetic is on company-local dates and
// date-times: "every 7 days" is 7 calendar days across a DST change, never 168 hours; "monthly from
// the 31st" falls on the last day of shorter months (each occurrence from the anchor, never chained).
// Zones come from Intl (no package): a zone's offset at an instant is read from its wall clock.

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

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

// Making a DateTimeFormat costs far more than using one: one per zone, made once.
const wallFormats = new Map<string, Intl.DateTimeFormat>();
function wallFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    wallFormats.set(timeZone, format);
  }
  return format;
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallAt(ms: number, timeZone: string): Wall {
  const parts = wallFormat(timeZone).formatToParts(new Date(ms));
  const get = (t: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === t)?.value ?? NaN);
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour") % 24,
    minute: get("minute"),
    second: get("second"),
  };
}

/** The zone's offset from UTC at an instant, in ms (New York in winter: -5 h). */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallAt(ms, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** A local date-time "YYYY-MM-DDTHH:mm" in a zone as an instant (ISO string); the later one in a DST gap. */
export function localDateTimeToInstant(local: string, timeZone: string): string {
  const m = LOCAL.exec(local);
  if (!m) throw new RangeError(`Not a local date-time: ${local}`);
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  // The offsets a day either side: the same but at a change of offset that day.
  const before = wall - offsetAt(wall - DAY_MS, timeZone);
  const after = wall - offsetAt(wall + DAY_MS, timeZone);
  const fits = (t: number) => t + offsetAt(t, timeZone) === wall;
  const valid = [before, after].filter(fits);
  // In a repeated hour (the fall's change) the earlier; in a gap (the spring's) neither fits: the later.
  const ms = valid.length > 0 ? Math.min(...valid) : Math.max(before, after);
  return new Date(ms).toISOString();
}

/** An instant as a local date-time "YYYY-MM-DDTHH:mm" in a zone (the form's value). */
export function instantToLocalDateTime(instant: string, timeZone: string): string {
  const w = wallAt(Date.parse(instant), timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** The instant a company-local date ends (its next day's local midnight): a dated task's due_at. */
export function endOfLocalDay(date: string, timeZone: string): string {
  return localDateTimeToInstant(`${addDays(date, 1)}T00:00`, timeZone);
}

/** The company-local date of an instant. */
function localDateOf(instant: string, timeZone: string): string {
  return instantToLocalDateTime(instant, timeZone).slice(0, 10);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The n-th (from 0) occurrence date of an 'every' schedule. */
export function occurrenceDate(spec: ScheduleSpec, n: number): string {
  const start = spec.startsOn;
  const interval = spec.interval ?? 1;
  if (!start) throw new RangeError("An 'every' schedule needs its Starting date");
  if (spec.unit === "days") return addDays(start, n * interval);
  if (spec.unit === "weeks") return addDays(start, n * interval * 7);
  // Months: from the anchor each time, the day clamped to the month's last (31st → Feb 28/29, Mar 31).
  const year = Number(start.slice(0, 4));
  const month0 = Number(start.slice(5, 7)) - 1 + n * interval;
  const y = year + Math.floor(month0 / 12);
  const m = (month0 % 12) + 1;
  const d = Math.min(Number(start.slice(8, 10)), daysInMonth(y, m));
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

function datedTask(date: string, occurrence: number, timeZone: string): TaskDue {
  return { occurrence, dueAt: endOfLocalDay(date, timeZone), dueOn: date, timed: false };
}

function timedTask(dueMs: number, occurrence: number | null, timeZone: string): TaskDue {
  const dueAt = new Date(dueMs).toISOString();
  return { occurrence, dueAt, dueOn: localDateOf(dueAt, timeZone), timed: true };
}

/** An instant moved by an offset: hours exactly, days as local calendar days at the same wall time. */
function shift(instant: string, amount: number, unit: OffsetUnit, sign: 1 | -1, timeZone: string): number {
  if (unit === "hours") return Date.parse(instant) + sign * amount * HOUR_MS;
  const local = instantToLocalDateTime(instant, timeZone);
  const date = addDays(local.slice(0, 10), sign * amount);
  return Date.parse(localDateTimeToInstant(`${date}${local.slice(10)}`, timeZone));
}

/** The first occurrence on or after `from`. */
function firstOccurrenceFrom(spec: ScheduleSpec, from: string): number {
  const start = spec.startsOn as string;
  if (from <= start) return 0;
  const interval = spec.interval ?? 1;
  let n: number;
  if (spec.unit === "months") {
    const months =
      (Number(from.slice(0, 4)) - Number(start.slice(0, 4))) * 12 +
      Number(from.slice(5, 7)) -
      Number(start.slice(5, 7));
    n = Math.max(0, Math.floor(months / interval) - 1);
  } else {
    const step = interval * (spec.unit === "weeks" ? 7 : 1);
    n = Math.max(0, Math.floor(daysBetween(start, from) / step) - 1);
  }
  while (occurrenceDate(spec, n) < from) n++;
  return n;
}

/**
 * The first task of a new (or edited) condition: once → its due date; every → the first occurrence
 * on or after `today` (none past ends_on); before_event → offset before the milestone; after_event →
 * null (events make its tasks).
 */
export function firstTask(spec: ScheduleSpec, timeZone: string, today: string): TaskDue | null {
  switch (spec.schedule) {
    case "once":
      return spec.dueDate ? datedTask(spec.dueDate, 0, timeZone) : null;
    case "every": {
      if (!spec.startsOn) return null;
      const n = firstOccurrenceFrom(spec, today);
      const date = occurrenceDate(spec, n);
      if (spec.endsOn && date > spec.endsOn) return null;
      return datedTask(date, n, timeZone);
    }
    case "before_event":
      if (!spec.milestoneAt) return null;
      return timedTask(
        shift(spec.milestoneAt, spec.offsetAmount ?? 0, spec.offsetUnit ?? "hours", -1, timeZone),
        0,
        timeZone,
      );
    case "after_event":
      return null;
  }
}

/** The task after occurrence n of an 'every' schedule (completing one makes it); null past ends_on. */
export function nextTask(spec: ScheduleSpec, timeZone: string, afterOccurrence: number): TaskDue | null {
  if (spec.schedule !== "every" || !spec.startsOn) return null;
  const n = afterOccurrence + 1;
  const date = occurrenceDate(spec, n);
  if (spec.endsOn && date > spec.endsOn) return null;
  return datedTask(date, n, timeZone);
}

/** An after_event condition's task for an event at `occurredAt` (an instant): due offset after it. */
export function eventTask(spec: ScheduleSpec, timeZone: string, occurredAt: string): TaskDue {
  return timedTask(
    shift(occurredAt, spec.offsetAmount ?? 0, spec.offsetUnit ?? "hours", 1, timeZone),
    null,
    timeZone,
  );
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
const UNIT_ONE: Record<EveryUnit | OffsetUnit, string> = {
  days: "day",
  weeks: "week",
  months: "month",
  hours: "hour",
};

/** An instant as "Dec 3, 2026, 7:00 AM" in the zone. */
function formatInstant(instant: string, timeZone: string): string {
  return new Intl.DateTimeFormat(DISPLAY_LOCALE, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone,
  }).format(new Date(instant));
}

/** The schedule in words: "Every 7 days from Dec 1, 2026", "48 hours before Pour", "Within 24 hours of Rain ≥ 0.25 in". */
export function describeSchedule(
  spec: ScheduleSpec & { milestoneName: string | null; eventKind: string | null },
  timeZone: string,
): string {
  const offset = plural(spec.offsetAmount ?? 0, UNIT_ONE[spec.offsetUnit ?? "hours"]);
  switch (spec.schedule) {
    case "once":
      return `Once, due ${formatDate(spec.dueDate) ?? "—"}`;
    case "every": {
      const interval = spec.interval ?? 1;
      const unit = UNIT_ONE[spec.unit ?? "days"];
      const every = interval === 1 ? `Every ${unit}` : `Every ${plural(interval, unit)}`;
      const from = spec.startsOn ? ` from ${formatDate(spec.startsOn)}` : "";
      const until = spec.endsOn ? ` until ${formatDate(spec.endsOn)}` : "";
      return `${every}${from}${until}`;
    }
    case "before_event": {
      const when = spec.milestoneAt ? ` (${formatInstant(spec.milestoneAt, timeZone)})` : "";
      return `${offset} before ${spec.milestoneName ?? "the milestone"}${when}`;
    }
    case "after_event":
      return `Within ${offset} of ${spec.eventKind ?? "an event"}`;
  }
}

/** The schedule in brief for the audit trail and lists: "Every 7 days", "Once", "48 hours before Pour". */
export function scheduleBrief(
  spec: Pick<ScheduleSpec, "schedule" | "interval" | "unit" | "offsetAmount" | "offsetUnit"> & {
    milestoneName: string | null;
    eventKind: string | null;
  },
): string {
  const offset = plural(spec.offsetAmount ?? 0, UNIT_ONE[spec.offsetUnit ?? "hours"]);
  switch (spec.schedule) {
    case "once":
      return "Once";
    case "every": {
      const interval = spec.interval ?? 1;
      const unit = UNIT_ONE[spec.unit ?? "days"];
      return interval === 1 ? `Every ${unit}` : `Every ${plural(interval, unit)}`;
    }
    case "before_event":
      return `${offset} before ${spec.milestoneName ?? "the milestone"}`;
    case "after_event":
      return `Within ${offset} of ${spec.eventKind ?? "an event"}`;
  }
}
