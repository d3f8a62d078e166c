import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { scopeConditions, scopeOf, type Actor } from "../../access/actor.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { companies, conditionTasks, permitConditions, permits, projects } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import { DEFAULT_EVENT_KINDS } from "../../../shared/domain/conditions.ts";

// The scoped reads of conditions, tasks and project events: another company's record (or, for a
// client-user, another client's) is 404, as if it did not exist.

const permitInScope = (actor: Actor): SQL | undefined =>
  scopeConditions(scopeOf(actor), { companyId: permits.companyId, clientId: permits.clientId });

/** What the policies and services need of the permit a condition or task belongs to. */
const permitFacts = {
  permitId: permits.id,
  companyId: permits.companyId,
  clientId: permits.clientId,
  closeDate: permits.closeDate,
  bondStatus: permits.bondStatus,
  archived: permits.archived,
  responsibleUserId: permits.responsibleUserId,
  permitNumber: permits.permitNumber,
  timeZone: companies.timeZone,
};

export type ConditionRow = typeof permitConditions.$inferSelect;
export type TaskRow = typeof conditionTasks.$inferSelect;
export interface PermitFacts {
  permitId: string;
  companyId: string;
  clientId: string | null;
  closeDate: string | null;
  bondStatus: string | null;
  archived: boolean;
  responsibleUserId: string | null;
  permitNumber: string;
  timeZone: string;
}

/** A permit the actor may see with its company's zone (the card's writes), or 404. */
export async function findConditionPermit(
  db: Db,
  actor: Actor,
  permitId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<PermitFacts> {
  const query = db
    .select(permitFacts)
    .from(permits)
    .innerJoin(companies, eq(companies.id, permits.companyId))
    .where(and(eq(permits.id, permitId), permitInScope(actor)));
  const [row] = opts.forUpdate ? await query.for("update", { of: permits }) : await query;
  if (!row) throw notFound("Permit");
  return row;
}

/** A live (not removed) condition the actor may see, with its permit's facts, or 404. */
export async function findVisibleCondition(
  db: Db,
  actor: Actor,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<{ condition: ConditionRow; permit: PermitFacts }> {
  const query = db
    .select({ condition: permitConditions, permit: permitFacts })
    .from(permitConditions)
    .innerJoin(permits, eq(permits.id, permitConditions.permitId))
    .innerJoin(companies, eq(companies.id, permits.companyId))
    .where(and(eq(permitConditions.id, id), isNull(permitConditions.removedAt), permitInScope(actor)));
  // The permit's row is locked too: a close meanwhile waits for this write (and sees its tasks).
  const [row] = opts.forUpdate ? await query.for("update", { of: [permitConditions, permits] }) : await query;
  if (!row) throw notFound("Condition");
  return row;
}

/** A task the actor may see, with its condition and its permit's facts, or 404. */
export async function findVisibleTask(
  db: Db,
  actor: Actor,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<{ task: TaskRow; condition: ConditionRow; permit: PermitFacts }> {
  const query = db
    .select({ task: conditionTasks, condition: permitConditions, permit: permitFacts })
    .from(conditionTasks)
    .innerJoin(permitConditions, eq(permitConditions.id, conditionTasks.conditionId))
    .innerJoin(permits, eq(permits.id, conditionTasks.permitId))
    .innerJoin(companies, eq(companies.id, permits.companyId))
    .where(and(eq(conditionTasks.id, id), permitInScope(actor)));
  const [row] = opts.forUpdate
    ? await query.for("update", { of: [conditionTasks, permitConditions, permits] })
    : await query;
  if (!row) throw notFound("Task");
  return row;
}

export interface ProjectFacts {
  id: string;
  companyId: string;
  clientId: string | null;
  name: string;
  timeZone: string;
}

/** A project the actor may see with its company's zone, or 404. */
export async function findEventProject(db: Db, actor: Actor, id: string): Promise<ProjectFacts> {
  const [row] = await db
    .select({
      id: projects.id,
      companyId: projects.companyId,
      clientId: projects.clientId,
      name: projects.name,
      timeZone: companies.timeZone,
    })
    .from(projects)
    .innerJoin(companies, eq(companies.id, projects.companyId))
    .where(
      and(
        eq(projects.id, id),
        scopeConditions(scopeOf(actor), { companyId: projects.companyId, clientId: projects.clientId }),
      ),
    );
  if (!row) throw notFound("Project");
  return row;
}

/**
 * The event kinds a company's forms offer: the defaults, then those its events and conditions
 * used (as first written), each once by eventKindKey, as SQL giving a text[].
 */
export const eventKindsSql = (companyId: SQL | string): SQL => sql`(
  select coalesce(array_agg(k.kind order by k.first, k.kind), '{}')
  from (
    select distinct on (lower(btrim(regexp_replace(kind, '\\s+', ' ', 'g')))) kind, first
    from (
      select d.kind, d.n::int as first from unnest(${sql.raw(`array[${DEFAULT_EVENT_KINDS.map((k) => `'${k.replace(/'/g, "''")}'`).join(",")}]`)}::text[]) with ordinality as d(kind, n)
      union all
      select e.kind, 1000 from project_events e where e.company_id = ${companyId}
      union all
      select c.event_kind, 1000 from permit_conditions c
      where c.company_id = ${companyId} and c.schedule = 'after_event' and c.removed_at is null
    ) all_kinds
    order by lower(btrim(regexp_replace(kind, '\\s+', ' ', 'g'))), first
  ) k)`;

export interface CardRow {
  permit_id: string;
  company_id: string;
  client_id: string | null;
  close_date: string | null;
  bond_status: string | null;
  archived: boolean;
  time_zone: string;
  conditions: CardCondition[];
  owners: { id: string; name: string }[];
  event_kinds: string[];
}

export interface CardTask {
  id: string;
  condition_id: string;
  permit_id: string;
  occurrence: number | null;
  event_id: string | null;
  event_kind: string | null;
  event_occurred_at: string | null;
  due_at: string;
  due_on: string;
  timed: boolean;
  status: string;
  overdue: boolean;
  completed_by_name: string | null;
  completed_at: string | null;
  note: string | null;
  reason: string | null;
  evidence_name: string | null;
  evidence_content_type: string | null;
  evidence_size: number | null;
}

export interface CardCondition {
  id: string;
  permit_id: string;
  title: string;
  description: string | null;
  owner_id: string | null;
  owner_name: string | null;
  evidence: string;
  schedule: string;
  due_date: string | null;
  every_interval: number | null;
  every_unit: string | null;
  starts_on: string | null;
  ends_on: string | null;
  offset_amount: number | null;
  offset_unit: string | null;
  milestone_name: string | null;
  milestone_at: string | null;
  event_kind: string | null;
  tasks: CardTask[];
  closed_task_count: number;
}

/** The newest closed tasks a condition lists (the count says how many there are in all). */
export const CLOSED_TASKS_LISTED = 20;

/** A task as the card reads it (t: condition_tasks, e: its event). */
const taskJson = sql.raw(`json_build_object(
  'id', t.id, 'condition_id', t.condition_id, 'permit_id', t.permit_id, 'occurrence', t.occurrence,
  'event_id', e.id, 'event_kind', e.kind, 'event_occurred_at', e.occurred_at,
  'due_at', t.due_at, 'due_on', t.due_on, 'timed', t.timed, 'status', t.status,
  'overdue', t.status = 'open' and t.due_at < now(),
  'completed_by_name', t.completed_by_name, 'completed_at', t.completed_at, 'note', t.note, 'reason', t.reason,
  'evidence_name', t.evidence_name, 'evidence_content_type', t.evidence_content_type, 'evidence_size', t.evidence_size)`);

/**
 * The Conditions card in one statement: the permit (scoped: no row is 404), its live conditions
 * oldest first, each with its open tasks (soonest first) then its newest closed ones as a JSON
 * column, the 'Owner' choices (active staff of the permit's company) and the event kinds.
 */
export async function readConditionsCard(db: Db, actor: Actor, permitId: string): Promise<CardRow | null> {
  const [row] = await queryRows<CardRow>(
    db,
    sql`
    select ${permits.id} as permit_id, ${permits.companyId} as company_id, ${permits.clientId} as client_id,
      ${permits.closeDate}::text as close_date, ${permits.bondStatus} as bond_status, ${permits.archived} as archived,
      co.time_zone,
      coalesce((
        select json_agg(json_build_object(
          'id', c.id, 'permit_id', c.permit_id, 'title', c.title, 'description', c.description,
          'owner_id', c.owner_user_id, 'owner_name', u.name, 'evidence', c.evidence, 'schedule', c.schedule,
          'due_date', c.due_date, 'every_interval', c.every_interval, 'every_unit', c.every_unit,
          'starts_on', c.starts_on, 'ends_on', c.ends_on, 'offset_amount', c.offset_amount,
          'offset_unit', c.offset_unit, 'milestone_name', c.milestone_name, 'milestone_at', c.milestone_at,
          'event_kind', c.event_kind,
          'tasks', coalesce((
            select json_agg(x.task order by x.closed, x.sort_open, x.sort_closed desc)
            from (
              select ${taskJson} as task, false as closed, t.due_at as sort_open, null::timestamptz as sort_closed
              from condition_tasks t left join project_events e on e.id = t.event_id
              where t.condition_id = c.id and t.status = 'open'
              union all
              (select ${taskJson}, true, null, coalesce(t.completed_at, t.due_at)
               from condition_tasks t left join project_events e on e.id = t.event_id
               where t.condition_id = c.id and t.status <> 'open'
               order by coalesce(t.completed_at, t.due_at) desc, t.id
               limit ${CLOSED_TASKS_LISTED})
            ) x), '[]'::json),
          'closed_task_count', (select count(*)::int from condition_tasks t where t.condition_id = c.id and t.status <> 'open')
        ) order by c.created_at, c.id)
        from permit_conditions c left join users u on u.id = c.owner_user_id
        where c.permit_id = ${permits.id} and c.removed_at is null
      ), '[]'::json) as conditions,
      coalesce((
        select json_agg(json_build_object('id', s.id, 'name', s.name) order by s.name, s.id)
        from users s
        where s.company_id = ${permits.companyId} and s.role in ('company-admin', 'company-user') and not s.banned
      ), '[]'::json) as owners,
      ${eventKindsSql(sql`${permits.companyId}`)} as event_kinds
    from ${permits} join companies co on co.id = ${permits.companyId}
    where ${permits.id} = ${permitId} ${scopeAnd(actor)}`,
  );
  return row ?? null;
}

const scopeAnd = (actor: Actor): SQL => {
  const scope = permitInScope(actor);
  return scope ? sql`and ${scope}` : sql``;
};
