// Conditions of approval as tasks (issue 29, decision 0032): the words and limits the server, the
// screens, the import and the e-mails share. The schedule arithmetic is condition-schedule.ts.

export const EVIDENCE_KINDS = ["none", "file", "photo"] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];
export const EVIDENCE_LABELS: Record<EvidenceKind, string> = { none: "None", file: "File", photo: "Photo" };

export const SCHEDULE_KINDS = ["once", "every", "before_event", "after_event"] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];
export const SCHEDULE_LABELS: Record<ScheduleKind, string> = {
  once: "Once",
  every: "Every",
  before_event: "Before an event",
  after_event: "After an event",
};

export const EVERY_UNITS = ["days", "weeks", "months"] as const;
export type EveryUnit = (typeof EVERY_UNITS)[number];
export const EVERY_UNIT_LABELS: Record<EveryUnit, string> = { days: "Days", weeks: "Weeks", months: "Months" };

export const OFFSET_UNITS = ["hours", "days"] as const;
export type OffsetUnit = (typeof OFFSET_UNITS)[number];
export const OFFSET_UNIT_LABELS: Record<OffsetUnit, string> = { hours: "Hours", days: "Days" };

export const TASK_STATUSES = ["open", "done", "not_applicable"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TASK_STATUS_LABELS: Record<TaskStatus, string> = {
  open: "Open",
  done: "Done",
  not_applicable: "Not Applicable",
};

/** The reason written on the open tasks of a permit that is closed (issue 29, item 5). */
export const PERMIT_CLOSED_REASON = "Not Applicable – permit closed";
/** The reason written on the open tasks of a condition that is removed. */
export const CONDITION_REMOVED_REASON = "Not Applicable – condition removed";

/** Event kinds offered in 'Log Event' and 'After an event' beside those a company has used. */
export const DEFAULT_EVENT_KINDS = [
  "Rain ≥ 0.25 in",
  "Rain ≥ 0.5 in",
  "Snow or ice",
  "High wind",
  "Spill or release",
  "Lane closure",
] as const;

/** An event kind as conditions and events are matched: trimmed, spaces folded, any case. */
export const eventKindKey = (kind: string) => kind.trim().replace(/\s+/g, " ").toLowerCase();

/** 'Tasks Due' (list tile and filter): open tasks due within this many days, or overdue. */
export const TASKS_DUE_DAYS = 7;
/** The owner's digest lists a task this many days before it is due (and once overdue). */
export const TASK_DIGEST_DAYS = 7;

export const CONDITION_TITLE_MAX = 200;
export const CONDITION_DESCRIPTION_MAX = 4000;
export const TASK_NOTE_MAX = 4000;
export const TASK_REASON_MAX = 500;
export const EVENT_KIND_MAX = 80;
export const EVENT_NOTE_MAX = 2000;
export const MILESTONE_NAME_MAX = 120;
/** How far apart 'Every' may space tasks, and how far before or after an event a task may fall. */
export const EVERY_INTERVAL_MAX = 365;
export const OFFSET_MAX_HOURS = 8760;

/** Content types a 'Photo' evidence may have (a phone camera's JPEG, HEIC; PNG, WebP). */
export const PHOTO_CONTENT_TYPES = ["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif"] as const;

/** A task as the audit trail names it ("Inspect erosion controls due 2027-10-26"; the trail shows the date as the screens do). */
export const taskAuditText = (title: string, dueOn: string) => `${title} due ${dueOn}`;
