import { desc, eq, sql } from "drizzle-orm";
import { eventKindKey } from "../../../shared/domain/conditions.ts";
import { localDateTimeToInstant } from "../../../shared/domain/condition-schedule.ts";
import type { ProjectEvent } from "../../../shared/schemas/conditions.ts";
import type { Actor } from "../../access/actor.ts";
import { recordPermitAuditMany, type PermitAuditEntry } from "../../audit/audit-writer.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { projectEvents } from "../../db/schema.ts";
import { notClosedCondition } from "../permits/index.ts";
import { storedEventKind } from "./condition-input.ts";
import { eventKindsSql, type ProjectFacts } from "./conditions.repository.ts";
import { taskAuditText } from "./condition-values.ts";

// 'Log Event' on a project (issue 29): the event, and a task for every live 'After an event'
// condition of its kind on the project's open permits, due within the condition's window.

type EventRow = typeof projectEvents.$inferSelect;

export const presentEvent = (e: EventRow): ProjectEvent => ({
  id: e.id,
  kind: e.kind,
  occurredAt: e.occurredAt.toISOString(),
  note: e.note,
  createdByName: e.createdByName,
  createdAt: e.createdAt.toISOString(),
});

export interface LoggedEvent {
  event: EventRow;
  tasksCreated: number;
  permits: { id: string; permitNumber: string; permitName: string }[];
}

/**
 * Records the event and makes its tasks in one set-based statement: each matching condition's task
 * is due `offset` after the event, hours exactly, days as local calendar days at the same wall time
 * in the company's zone (as eventTask() of condition-schedule.ts computes it), due_on its local date.
 * Unique per condition and event. Then the audit entries, one statement for all the permits.
 */
export async function logProjectEvent(
  tx: Db,
  actor: Actor,
  project: ProjectFacts,
  input: { kind: string; occurredAt: string; note: string | null },
): Promise<LoggedEvent> {
  const kind = storedEventKind(input.kind)!;
  const [event] = await tx
    .insert(projectEvents)
    .values({
      companyId: project.companyId,
      projectId: project.id,
      kind,
      occurredAt: new Date(localDateTimeToInstant(input.occurredAt, project.timeZone)),
      note: input.note,
      createdBy: actor.userId,
      createdByName: actor.name,
    })
    .returning();
  const zone = project.timeZone;
  const made = await queryRows<{
    permit_id: string;
    permit_number: string;
    permit_name: string;
    title: string;
    due_on: string;
  }>(
    tx,
    sql`
    with due as (
      select c.id as condition_id, c.permit_id, c.title,
        case when c.offset_unit = 'days'
          then ((${event!.occurredAt.toISOString()}::timestamptz at time zone ${zone}) + make_interval(days => c.offset_amount)) at time zone ${zone}
          else ${event!.occurredAt.toISOString()}::timestamptz + make_interval(hours => c.offset_amount)
        end as due_at
      from permit_conditions c
      join permits on permits.id = c.permit_id
      where c.company_id = ${project.companyId} and c.schedule = 'after_event' and c.removed_at is null
        and lower(c.event_kind) = ${eventKindKey(kind)}
        and permits.project_id = ${project.id} and permits.company_id = ${project.companyId}
        and not permits.archived and ${notClosedCondition()}
    ),
    made as (
      insert into condition_tasks (company_id, permit_id, condition_id, event_id, due_at, due_on, timed)
      select ${project.companyId}, d.permit_id, d.condition_id, ${event!.id}, d.due_at, (d.due_at at time zone ${zone})::date, true
      from due d
      on conflict do nothing
      returning permit_id, condition_id, due_on
    )
    select m.permit_id, p.permit_number, p.permit_name, c.title, m.due_on::text as due_on
    from made m join permits p on p.id = m.permit_id join permit_conditions c on c.id = m.condition_id
    order by p.permit_number, c.title`,
  );
  const byPermit = new Map<
    string,
    { permit: { id: string; permitNumber: string; permitName: string }; entries: PermitAuditEntry[] }
  >();
  for (const m of made) {
    let item = byPermit.get(m.permit_id);
    if (!item) {
      item = {
        permit: { id: m.permit_id, permitNumber: m.permit_number, permitName: m.permit_name },
        entries: [
          {
            action: "event_logged",
            field: "event",
            newValue: `${kind} (${input.occurredAt.replace("T", " ")})`,
          },
        ],
      };
      byPermit.set(m.permit_id, item);
    }
    item.entries.push({ action: "task_created", field: "task", newValue: taskAuditText(m.title, m.due_on) });
  }
  await recordPermitAuditMany(
    tx,
    actor,
    [...byPermit.values()].map((i) => ({
      permit: { id: i.permit.id, companyId: project.companyId },
      entries: i.entries,
    })),
  );
  return { event: event!, tasksCreated: made.length, permits: [...byPermit.values()].map((i) => i.permit) };
}

/** A project's events, newest first (the latest 100), and the kinds to offer. */
export async function listProjectEvents(db: Db, project: ProjectFacts) {
  const events = await db
    .select()
    .from(projectEvents)
    .where(eq(projectEvents.projectId, project.id))
    .orderBy(desc(projectEvents.occurredAt), desc(projectEvents.id))
    .limit(100);
  const [kinds] = await queryRows<{ kinds: string[] }>(
    db,
    sql`select ${eventKindsSql(project.companyId)} as kinds`,
  );
  return { events: events.map(presentEvent), eventKinds: kinds?.kinds ?? [] };
}
