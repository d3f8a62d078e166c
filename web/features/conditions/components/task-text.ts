import type { Task } from "../../../../shared/schemas/conditions.ts";
import { formatDay, formatMomentIn } from "../../../lib/format.ts";

/** When a task falls due: a dated one by its day, an event's by its time in the company's zone. */
export function dueWhen(task: Task, timeZone: string): string {
  return task.timed ? formatMomentIn(task.dueAt, timeZone) : (formatDay(task.dueOn) ?? task.dueOn);
}

/** "Due Dec 3, 2026", "Due Dec 3, 2026, 7:00 AM (overdue)". */
export function dueText(task: Task, timeZone: string): string {
  return `Due ${dueWhen(task, timeZone)}${task.overdue ? " (overdue)" : ""}`;
}
