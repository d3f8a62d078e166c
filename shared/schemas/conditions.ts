import { z } from "zod";
import {
  CONDITION_DESCRIPTION_MAX,
  CONDITION_TITLE_MAX,
  EVENT_KIND_MAX,
  EVENT_NOTE_MAX,
  EVERY_INTERVAL_MAX,
  EVERY_UNITS,
  EVIDENCE_KINDS,
  MILESTONE_NAME_MAX,
  OFFSET_MAX_HOURS,
  OFFSET_UNITS,
  SCHEDULE_KINDS,
  TASK_NOTE_MAX,
  TASK_REASON_MAX,
  TASK_STATUSES,
} from "../domain/conditions.ts";
import { optionalDate, optionalId, optionalText, requiredText, uuid } from "./fields.ts";

// Conditions of approval as tasks (issue 29). The contract: /work/shared-notes/i29-conditions.md.
// Local date-times ("YYYY-MM-DDTHH:mm", an <input type="datetime-local">'s value) are read in the
// company's time zone; the server answers instants as ISO strings with the company's zone beside.

export const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const localDateTime = (label: string) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .regex(LOCAL_DATE_TIME, { message: `${label}: Must be a date and time` });
const optionalLocalDateTime = (label: string) =>
  z
    .union([
      z
        .string()
        .trim()
        .refine((v) => v === "" || LOCAL_DATE_TIME.test(v), { message: `${label}: Must be a date and time` }),
      z.null(),
    ])
    .optional()
    .transform((v) => (v ? v : null));
/**
 * An optional whole number: a JSON number, or digits as a form or a CSV sends them ("7"); "" and
 * null are none. Nothing else is read as a number ("0x10", "1e2", true: "<Label> must be a whole number").
 */
const wholeNumber = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (v === "" ? null : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ message: `${label} must be a whole number` })
      .int({ message: `${label} must be a whole number` })
      .min(min, { message: `${label} must be at least ${min}` })
      .max(max, { message: `${label} must be at most ${max}` })
      .nullish(),
  );

/**
 * 'Add Condition' / edit. Which schedule fields are needed depends on `schedule` (the server's
 * superRefine names the missing one: "Due Date is required", "Interval is required", ...):
 * once: dueDate; every: interval, unit, startsOn (endsOn optional); before_event: offsetAmount,
 * offsetUnit, milestoneName, milestoneAt; after_event: offsetAmount, offsetUnit, eventKind.
 */
export const ConditionInputSchema = z
  .object({
    title: requiredText("Title", CONDITION_TITLE_MAX),
    description: optionalText("Description", CONDITION_DESCRIPTION_MAX),
    /** A staff user of the permit's company; null: the permit's responsible person. */
    ownerUserId: optionalId(),
    evidence: z.enum(EVIDENCE_KINDS, { message: "Choose the Evidence Required" }).default("none"),
    schedule: z.enum(SCHEDULE_KINDS, { message: "Choose a Schedule" }),
    dueDate: optionalDate("Due Date"),
    interval: wholeNumber("Interval", 1, EVERY_INTERVAL_MAX),
    unit: z.enum(EVERY_UNITS, { message: "Choose a Unit" }).nullish(),
    startsOn: optionalDate("Starting"),
    endsOn: optionalDate("Ends"),
    offsetAmount: wholeNumber("Within", 0, OFFSET_MAX_HOURS),
    offsetUnit: z.enum(OFFSET_UNITS, { message: "Choose Hours or Days" }).nullish(),
    milestoneName: optionalText("Milestone", MILESTONE_NAME_MAX),
    milestoneAt: optionalLocalDateTime("Milestone Date"),
    eventKind: optionalText("Event", EVENT_KIND_MAX),
  })
  .superRefine((v, ctx) => {
    const need = (ok: unknown, path: string, message: string) => {
      if (ok === null || ok === undefined || ok === "")
        ctx.addIssue({ code: "custom", path: [path], message });
    };
    if (v.schedule === "once") need(v.dueDate, "dueDate", "Due Date is required");
    if (v.schedule === "every") {
      need(v.interval, "interval", "Interval is required");
      need(v.unit, "unit", "Unit is required");
      need(v.startsOn, "startsOn", "Starting is required");
      if (v.startsOn && v.endsOn && v.endsOn < v.startsOn)
        ctx.addIssue({ code: "custom", path: ["endsOn"], message: "Ends must be on or after Starting" });
    }
    if (v.schedule === "before_event" || v.schedule === "after_event") {
      need(v.offsetAmount, "offsetAmount", "Within is required");
      need(v.offsetUnit, "offsetUnit", "Choose Hours or Days");
      if (v.offsetUnit === "days" && (v.offsetAmount ?? 0) > OFFSET_MAX_HOURS / 24)
        ctx.addIssue({ code: "custom", path: ["offsetAmount"], message: "Within must be at most 365 days" });
    }
    if (v.schedule === "before_event") {
      need(v.milestoneName, "milestoneName", "Milestone is required");
      need(v.milestoneAt, "milestoneAt", "Milestone Date is required");
    }
    if (v.schedule === "after_event") need(v.eventKind, "eventKind", "Event is required");
  });
export type ConditionInput = z.infer<typeof ConditionInputSchema>;

/** 'Complete' (dialog 'Complete Task'): a multipart form with `note` and, as the condition asks, `file`. */
export const CompleteTaskFieldsSchema = z.object({
  note: optionalText("Note", TASK_NOTE_MAX),
});
/** 'Not Applicable': a reason is required. */
export const NotApplicableInputSchema = z.object({
  reason: requiredText("Reason", TASK_REASON_MAX),
});
/** 'Log Event' on a project. */
export const EventInputSchema = z.object({
  kind: requiredText("Kind", EVENT_KIND_MAX),
  occurredAt: localDateTime("Date and Time"),
  note: optionalText("Note", EVENT_NOTE_MAX),
});

const UserRef = z.object({ id: uuid(), name: z.string() });

export const TaskSchema = z.object({
  id: uuid(),
  conditionId: uuid(),
  permitId: uuid(),
  occurrence: z.number().int().nullable(),
  /** The event a triggered task answers: its kind and time. */
  event: z.object({ id: uuid(), kind: z.string(), occurredAt: z.string() }).nullable(),
  dueAt: z.string(),
  dueOn: z.string(),
  timed: z.boolean(),
  status: z.enum(TASK_STATUSES),
  overdue: z.boolean(),
  completedByName: z.string().nullable(),
  completedAt: z.string().nullable(),
  note: z.string().nullable(),
  reason: z.string().nullable(),
  /** The evidence file (downloaded from GET /api/tasks/:id/evidence). */
  evidence: z.object({ name: z.string(), contentType: z.string(), size: z.number() }).nullable(),
});
export type Task = z.infer<typeof TaskSchema>;

export const ConditionSchema = z.object({
  id: uuid(),
  permitId: uuid(),
  title: z.string(),
  description: z.string().nullable(),
  owner: UserRef.nullable(),
  evidence: z.enum(EVIDENCE_KINDS),
  schedule: z.enum(SCHEDULE_KINDS),
  dueDate: z.string().nullable(),
  interval: z.number().int().nullable(),
  unit: z.enum(EVERY_UNITS).nullable(),
  startsOn: z.string().nullable(),
  endsOn: z.string().nullable(),
  offsetAmount: z.number().int().nullable(),
  offsetUnit: z.enum(OFFSET_UNITS).nullable(),
  milestoneName: z.string().nullable(),
  /** The milestone as a local date-time in the company's zone ("YYYY-MM-DDTHH:mm"), for the form. */
  milestoneAt: z.string().nullable(),
  eventKind: z.string().nullable(),
  /** "Every 7 days from Dec 1, 2026", "48 hours before Pour (Dec 3, 2026, 7:00 AM)", ... */
  scheduleText: z.string(),
  /** Its open tasks, then the done and not-applicable ones, newest first (at most 20 of those). */
  tasks: z.array(TaskSchema),
  /** How many closed tasks there are in all (the list holds the newest 20). */
  closedTaskCount: z.number().int(),
});
export type Condition = z.infer<typeof ConditionSchema>;

/** GET /api/permits/:id/conditions: the card's whole content in one answer. */
export const PermitConditionsSchema = z.object({
  conditions: z.array(ConditionSchema),
  timeZone: z.string(),
  can: z.object({ manage: z.boolean(), complete: z.boolean() }),
  /** The 'Owner' choices (active staff of the permit's company); [] for who cannot manage. */
  owners: z.array(UserRef),
  /** 'After an event' kinds: the defaults and those the company used. */
  eventKinds: z.array(z.string()),
});
export type PermitConditions = z.infer<typeof PermitConditionsSchema>;

/** The answer to Complete and Not Applicable: the task as it is now and the next one it made. */
export const TaskChangeSchema = z.object({ task: TaskSchema, next: TaskSchema.nullable() });

export const ProjectEventSchema = z.object({
  id: uuid(),
  kind: z.string(),
  occurredAt: z.string(),
  note: z.string().nullable(),
  createdByName: z.string(),
  createdAt: z.string(),
});
export type ProjectEvent = z.infer<typeof ProjectEventSchema>;
/** POST /api/projects/:id/events: the event and how many tasks it made (on which permits). */
export const EventCreatedSchema = z.object({
  event: ProjectEventSchema,
  tasksCreated: z.number().int(),
  permits: z.array(z.object({ id: uuid(), permitNumber: z.string(), permitName: z.string() })),
});
/** GET /api/projects/:id/events: newest first, with the kinds to offer. */
export const ProjectEventsSchema = z.object({
  events: z.array(ProjectEventSchema),
  eventKinds: z.array(z.string()),
  can: z.object({ log: z.boolean() }),
});

/** A template's condition (relative dates: see template_conditions in server/db/schema.ts). */
export const TemplateConditionInputSchema = z
  .object({
    title: requiredText("Title", CONDITION_TITLE_MAX),
    description: optionalText("Description", CONDITION_DESCRIPTION_MAX),
    evidence: z.enum(EVIDENCE_KINDS, { message: "Choose the Evidence Required" }).default("none"),
    schedule: z.enum(SCHEDULE_KINDS, { message: "Choose a Schedule" }),
    dueDays: wholeNumber("Due After Days", 0, 3650),
    interval: wholeNumber("Interval", 1, EVERY_INTERVAL_MAX),
    unit: z.enum(EVERY_UNITS, { message: "Choose a Unit" }).nullish(),
    offsetAmount: wholeNumber("Within", 0, OFFSET_MAX_HOURS),
    offsetUnit: z.enum(OFFSET_UNITS, { message: "Choose Hours or Days" }).nullish(),
    milestoneName: optionalText("Milestone", MILESTONE_NAME_MAX),
    eventKind: optionalText("Event", EVENT_KIND_MAX),
  })
  .superRefine((v, ctx) => {
    const need = (ok: unknown, path: string, message: string) => {
      if (ok === null || ok === undefined || ok === "")
        ctx.addIssue({ code: "custom", path: [path], message });
    };
    if (v.schedule === "once") need(v.dueDays, "dueDays", "Due After Days is required");
    if (v.schedule === "every") {
      need(v.interval, "interval", "Interval is required");
      need(v.unit, "unit", "Unit is required");
    }
    if (v.schedule === "before_event" || v.schedule === "after_event") {
      need(v.offsetAmount, "offsetAmount", "Within is required");
      need(v.offsetUnit, "offsetUnit", "Choose Hours or Days");
    }
    if (v.schedule === "before_event") need(v.milestoneName, "milestoneName", "Milestone is required");
    if (v.schedule === "after_event") need(v.eventKind, "eventKind", "Event is required");
  });
export type TemplateConditionInput = z.infer<typeof TemplateConditionInputSchema>;
export const TemplateConditionSchema = z.object({
  id: uuid(),
  title: z.string(),
  description: z.string().nullable(),
  evidence: z.enum(EVIDENCE_KINDS),
  schedule: z.enum(SCHEDULE_KINDS),
  dueDays: z.number().int().nullable(),
  interval: z.number().int().nullable(),
  unit: z.enum(EVERY_UNITS).nullable(),
  offsetAmount: z.number().int().nullable(),
  offsetUnit: z.enum(OFFSET_UNITS).nullable(),
  milestoneName: z.string().nullable(),
  eventKind: z.string().nullable(),
  scheduleText: z.string(),
});
export type TemplateCondition = z.infer<typeof TemplateConditionSchema>;

/** A permit's tasks in brief (the list's rows, the project dashboard, a client-user's view). */
export const TaskCountsSchema = z.object({
  open: z.number().int(),
  overdue: z.number().int(),
  /** Open and due within TASKS_DUE_DAYS days, or overdue. */
  due: z.number().int(),
  nextDueOn: z.string().nullable(),
});
export type TaskCounts = z.infer<typeof TaskCountsSchema>;
