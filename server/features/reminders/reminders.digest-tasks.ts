import { DISPLAY_LOCALE, formatDate } from "../../../shared/domain/format.ts";
import type { DigestItem } from "./reminders.digest.ts";

/**
 * The conditions' tasks in the digest (issue 29): the owner's 'Tasks' section (due within 7 days,
 * and overdue ones), the admins' 'Overdue tasks' section (escalations), and how a task line reads.
 */

/** A condition's task a digest line speaks of. */
export interface DigestTask {
  id: string;
  /** The condition's title. */
  title: string;
  /** Company-local due date. */
  dueOn: string;
  /** The instant it is (or was) overdue from (ISO). */
  dueAt: string;
  /** Due at a time (an event's window) rather than by the end of the day. */
  timed: boolean;
  /** The company's zone, in which a timed task's time reads. */
  timeZone: string;
  /** Overdue when the digest was loaded. */
  overdue: boolean;
}

export const TASKS_HEADING = "Tasks";
export const OVERDUE_TASKS_HEADING = "Overdue tasks";
export const TASK_COLUMNS = ["Permit", "Number", "Project", "Due", "State"];

const timeFormats = new Map<string, Intl.DateTimeFormat>();
/** "2:30 PM" in the zone. */
function timeIn(instant: string, timeZone: string): string {
  let format = timeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat(DISPLAY_LOCALE, { timeZone, hour: "numeric", minute: "2-digit" });
    timeFormats.set(timeZone, format);
  }
  return format.format(new Date(instant));
}

/** "Nov 25, 2026", or "Nov 25, 2026, 2:30 PM" for a timed task (in the company's zone). */
export function taskDueText(task: DigestTask): string {
  const day = formatDate(task.dueOn) ?? task.dueOn;
  return task.timed ? `${day}, ${timeIn(task.dueAt, task.timeZone)}` : day;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Overdue since Nov 25, 2026", "due today", "3 days left". */
export function taskState(i: DigestItem): string {
  const task = i.task!;
  if (task.overdue) return `Overdue since ${taskDueText(task)}`;
  if (i.daysLeft <= 0) return "due today";
  return `${plural(i.daysLeft, "day", "days")} left`;
}

const byDue = (a: DigestItem, b: DigestItem) =>
  a.task!.dueAt.localeCompare(b.task!.dueAt) || a.task!.title.localeCompare(b.task!.title);

/** The task sections, in order: the owner's tasks (overdue first), then the admins' overdue tasks. */
export function taskSections(items: DigestItem[]): { key: string; heading: string; items: DigestItem[] }[] {
  const own = items.filter((i) => i.kind === "task_due" || i.kind === "task_overdue").sort(byDue);
  const escalated = items.filter((i) => i.kind === "task_escalation").sort(byDue);
  return [
    ...(own.length ? [{ key: "tasks", heading: TASKS_HEADING, items: own }] : []),
    ...(escalated.length ? [{ key: "task_escalation", heading: OVERDUE_TASKS_HEADING, items: escalated }] : []),
  ];
}

/** The text part's lines of a task after its title. */
export function taskTextLines(i: DigestItem): [string, string][] {
  return [
    ["Permit", `${i.permitName} (${i.permitNumber})`],
    ["Project", i.projectName ?? "—"],
    ["Due", taskDueText(i.task!)],
    ["", taskState(i)],
  ];
}

/** The HTML part's cells of a task after its title: [text, stays on one line]. */
export function taskHtmlCells(i: DigestItem): [string, boolean][] {
  return [
    [i.permitName, false],
    [i.permitNumber, true],
    [i.projectName ?? "—", false],
    [taskDueText(i.task!), true],
    [taskState(i), false],
  ];
}
