import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { scopeOf, scopePlaceholderConditions, type Actor } from "../../access/actor.ts";
import { companies, permits, projects } from "../../db/schema.ts";
import { TASKS_DUE_DAYS } from "../../../shared/domain/conditions.ts";
import { DASHBOARD_TASKS_MAX, type ProjectDashboard } from "../../../shared/schemas/projects.ts";

// The project dashboard's tasks (issue 29): the open condition tasks of the project's permits the
// actor may see (not archived), their counts and the first ones by due, as one JSON column of the
// dashboard's one statement.

/** The column as the database sends it (from JSON: instants as ISO text). */
export interface ProjectTasksRow {
  open: number;
  overdue: number;
  due: number;
  items: {
    id: string;
    conditionId: string;
    permitId: string;
    permitNumber: string;
    permitName: string;
    title: string;
    dueAt: string;
    dueOn: string;
    timed: boolean;
    overdue: boolean;
    ownerName: string | null;
  }[];
}

const taskPermit = alias(permits, "task_permit");

/**
 * The open tasks of the project's permits within the actor's scope (the scope as placeholders, as
 * the dashboard's permits): counts over all of them, the rows ordered by due (at most
 * DASHBOARD_TASKS_MAX). "Due" is against today in the company's zone.
 */
export function projectTasksColumn(actor: Actor) {
  const p = taskPermit;
  const scope = scopePlaceholderConditions(scopeOf(actor), { companyId: p.companyId, clientId: p.clientId });
  const join = sql`join ${permits} as ${sql.identifier("task_permit")} on ${p.id} = pt.permit_id`;
  const where = sql`where pt.status = 'open' and ${p.projectId} = ${projects.id} and not ${p.archived}${scope ? sql` and ${scope}` : sql``}`;
  const dueBy = sql`(now() at time zone ${companies.timeZone})::date + ${sql.raw(String(TASKS_DUE_DAYS))}`;
  return sql<ProjectTasksRow>`(select json_build_object(
      'open', count(*)::int,
      'overdue', (count(*) filter (where pt.due_at < now()))::int,
      'due', (count(*) filter (where pt.due_on <= ${dueBy}))::int,
      'items', (select coalesce(json_agg(row_to_json(q)), '[]'::json) from (
        select pt.id as "id", pt.condition_id as "conditionId", ${p.id} as "permitId",
               ${p.permitNumber} as "permitNumber", ${p.permitName} as "permitName", pc.title as "title",
               pt.due_at as "dueAt", pt.due_on as "dueOn", pt.timed as "timed", (pt.due_at < now()) as "overdue",
               coalesce(nullif(btrim(u.first_name || ' ' || u.last_name), ''), u.email) as "ownerName"
        from condition_tasks pt ${join}
        join permit_conditions pc on pc.id = pt.condition_id
        left join users u on u.id = pc.owner_user_id
        ${where}
        order by pt.due_at, ${p.permitNumber}, pt.id
        limit ${sql.raw(String(DASHBOARD_TASKS_MAX))}) q))
    from condition_tasks pt ${join} ${where})`;
}

/** The column as the dashboard answers it. */
export const presentProjectTasks = (row: ProjectTasksRow): ProjectDashboard["tasks"] => ({
  open: row.open,
  overdue: row.overdue,
  due: row.due,
  items: row.items.map((t) => ({
    id: t.id,
    condition_id: t.conditionId,
    permit_id: t.permitId,
    permit_number: t.permitNumber,
    permit_name: t.permitName,
    title: t.title,
    due_at: new Date(t.dueAt).toISOString(),
    due_on: t.dueOn,
    timed: t.timed,
    overdue: t.overdue,
    owner_name: t.ownerName,
  })),
});
