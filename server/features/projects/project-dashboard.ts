import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  scopeOf,
  scopeParams,
  scopePlaceholderConditions,
  scopeShape,
  type Actor,
} from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { builtOnce } from "../../db/built-once.ts";
import { companies, permits, projects } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import { todayIn } from "../../../shared/domain/dates.ts";
import { listCategory } from "../../../shared/domain/permit-rules.ts";
import { isClosedRecord, recordStatus, recordUrgency } from "../../../shared/domain/record-status.ts";
import {
  PROJECT_CATEGORIES,
  type DashboardPermit,
  type ProjectDashboard,
} from "../../../shared/schemas/projects.ts";
import { statusFacts } from "../permits/index.ts";
import { openRequestsColumn, presentOpenRequests, readsPartyName } from "./project-open-requests.ts";
import { projectTasksColumn, presentProjectTasks } from "./project-tasks.ts";
import { present, selectProjects } from "./projects.repository.ts";

// GET /api/projects/:id/dashboard: the project, its non-archived permits (N/A last), their
// categories and a summary, open requests, and open condition tasks (issue 29).

/** A project's permit as the dashboard reads it (from JSON: dates as text, createdAt as ISO text). */
interface DashboardPermitRow {
  id: string;
  permitNumber: string;
  permitName: string;
  agency: string | null;
  status: string;
  startDate: string | null;
  permitApplicationDate: string | null;
  issueDate: string | null;
  expirationDate: string | null;
  closeDate: string | null;
  finalStatus: string | null;
  bondStatus: string | null;
  archived: boolean;
  createdAt: string;
}

// The inner query names its permits apart from any outer one.
const dashboardPermit = alias(permits, "dashboard_permit");

/**
 * The permits of the project the actor may see (the scope as placeholders: the dashboard's
 * statement is built once per shape), as one JSON array in the project's row, in
 * creation order (template permits share their project's creation instant; their numbers keep
 * them in order).
 */
function dashboardPermitsColumn(actor: Actor) {
  const p = dashboardPermit;
  const scope = scopePlaceholderConditions(scopeOf(actor), { companyId: p.companyId, clientId: p.clientId });
  return sql<DashboardPermitRow[]>`(select coalesce(json_agg(json_build_object(
      'id', ${p.id}, 'permitNumber', ${p.permitNumber}, 'permitName', ${p.permitName},
      'agency', ${p.agency}, 'status', ${p.status}, 'startDate', ${p.startDate},
      'permitApplicationDate', ${p.permitApplicationDate}, 'issueDate', ${p.issueDate},
      'expirationDate', ${p.expirationDate},
      'closeDate', ${p.closeDate}, 'finalStatus', ${p.finalStatus}, 'bondStatus', ${p.bondStatus},
      'archived', ${p.archived}, 'createdAt', ${p.createdAt}
    ) order by ${p.createdAt}, ${p.permitNumber}, ${p.id}), '[]'::json)
    from ${permits} as ${sql.identifier("dashboard_permit")} where ${p.projectId} = ${projects.id}${scope ? sql` and ${scope}` : sql``})`;
}

/**
 * The project dashboard's data in one statement: the project the actor may see (else 404), its
 * company's time zone, and its permits.
 */
export async function findProjectDashboard(db: Db, actor: Actor, id: string) {
  const scope = scopeOf(actor);
  // Built once per shape of scope, its values (the project, the scope's) as placeholders.
  const party = readsPartyName(actor) ? "party" : "noparty";
  const statement = builtOnce(db, `project_dashboard_${scopeShape(scope)}_${party}`, (name) =>
    selectProjects(db, {
      timeZone: companies.timeZone,
      dashboardPermits: dashboardPermitsColumn(actor),
      openRequests: openRequestsColumn(actor),
      tasks: projectTasksColumn(actor),
    })
      .where(
        and(
          eq(projects.id, sql.placeholder("id")),
          scopePlaceholderConditions(scope, { companyId: projects.companyId, clientId: projects.clientId }),
        ),
      )
      .prepare(name),
  );
  const [row] = await statement.execute({ id, ...scopeParams(scope) });
  if (!row) throw notFound("Project");
  return {
    project: present(actor, row),
    timeZone: row.timeZone,
    permits: row.dashboardPermits,
    openRequests: row.openRequests,
    tasks: row.tasks,
  };
}

/** The dashboard of a project found by findProjectDashboard(). */
export function projectDashboard({
  project,
  timeZone,
  permits: rows,
  openRequests,
  tasks,
}: Awaited<ReturnType<typeof findProjectDashboard>>): ProjectDashboard {
  const today = todayIn(timeZone);
  // ISO instants of one zone compare as text.
  const earliestCreated = rows.reduce<string | null>(
    (min, r) => (!min || r.createdAt < min ? r.createdAt : min),
    null,
  );
  const shown = rows.filter((r) => !r.archived);
  const list: DashboardPermit[] = shown.map((r) => {
    const dates = {
      start_date: r.startDate,
      permit_application_date: r.permitApplicationDate,
      expiration_date: r.expirationDate,
    };
    const isNa = r.status === "N/A";
    return {
      id: r.id,
      permit_number: r.permitNumber,
      permit_name: r.permitName,
      agency: r.agency,
      status: r.status,
      display_status: isNa ? r.status : recordStatus(statusFacts(r), today),
      ...dates,
      // N/A permits are not needed, so they count in no category and raise no alarm. The list's
      // categories and words (issue 25: one vocabulary on both screens).
      category: isNa ? null : listCategory({ ...dates, issue_date: r.issueDate }),
      urgency: isNa ? null : recordUrgency(statusFacts(r), today),
    };
  });
  list.sort((a, b) => Number(a.status === "N/A") - Number(b.status === "N/A"));

  const counted = list.filter((p) => p.status !== "N/A");
  // A closed permit or bond has no expiration coming (issue 25).
  const closed = new Set(shown.filter((r) => isClosedRecord(statusFacts(r))).map((r) => r.id));
  const upcoming = counted
    .filter((p) => !closed.has(p.id))
    .map((p) => p.expiration_date)
    .filter((d): d is string => !!d && d >= today)
    .sort();
  return {
    project,
    start_date: project.start_date ?? (earliestCreated ? todayIn(timeZone, new Date(earliestCreated)) : null),
    today,
    categories: PROJECT_CATEGORIES.map((category) => ({
      category,
      count: counted.filter((p) => p.category === category).length,
    })),
    summary: {
      total: list.length,
      not_applicable: list.length - counted.length,
      uncategorized: counted.filter((p) => !p.category).length,
      expired: counted.filter((p) => p.urgency === "expired").length,
      expiring_soon: counted.filter((p) => p.urgency === "expiring").length,
      next_expiration: upcoming[0] ?? null,
      archived: rows.length - shown.length,
    },
    permits: list,
    open_requests: presentOpenRequests(openRequests, today),
    tasks: presentProjectTasks(tasks),
  };
}
