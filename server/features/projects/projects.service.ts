import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { alias, type PgColumn } from "drizzle-orm/pg-core";
import {
  choosesCompany,
  scopeConditions,
  scopeOf,
  scopeParams,
  scopePlaceholderConditions,
  scopeShape,
  type Actor,
} from "../../access/actor.ts";
import { projectCan } from "../../access/policies/project.ts";
import type { Db } from "../../db/client.ts";
import { builtOnce } from "../../db/built-once.ts";
import { attachments, clients, companies, permits, permitTemplates, projects } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import { todayIn } from "../../../shared/domain/dates.ts";
import { projectCategory, displayPermitStatus, urgency } from "../../../shared/domain/permit-rules.ts";
import { displayProjectStatus, type ProjectStatus } from "../../../shared/domain/statuses.ts";
import {
  PROJECT_CATEGORIES,
  type DashboardPermit,
  type Project,
  type ProjectDashboard,
  type ProjectSort,
} from "../../../shared/schemas/projects.ts";
import { recordEvent, recordPermitAudit } from "../../audit/audit-writer.ts";
import { assertCompanyExists, findOrCreateClientByName } from "../clients/index.ts";

const permitCount = sql<number>`(select count(*)::int from ${permits} where ${permits.projectId} = ${projects.id})`;

function selectProjects<Extra extends Record<string, SQL.Aliased | SQL | PgColumn>>(
  db: Db,
  extra: Extra = {} as Extra,
) {
  return db
    .select({
      ...extra,
      id: projects.id,
      name: projects.name,
      projectNumber: projects.projectNumber,
      status: projects.status,
      clientId: projects.clientId,
      clientName: clients.name,
      companyId: projects.companyId,
      companyName: companies.name,
      startDate: projects.startDate,
      permitCount,
    })
    .from(projects)
    .innerJoin(companies, eq(companies.id, projects.companyId))
    .leftJoin(clients, eq(clients.id, projects.clientId));
}
type ProjectRow = Awaited<ReturnType<typeof selectProjects>>[number];

/** What a project's readers may see: a client-user only its clients' projects. */
const visible = (actor: Actor) =>
  scopeConditions(scopeOf(actor), { companyId: projects.companyId, clientId: projects.clientId });

function present(actor: Actor, row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    project_number: row.projectNumber,
    status: displayProjectStatus(row.status),
    client_id: row.clientId,
    client_name: row.clientName,
    company_id: row.companyId,
    company_name: row.companyName,
    start_date: row.startDate,
    permit_count: Number(row.permitCount),
    can: projectCan(actor, { company_id: row.companyId, client_id: row.clientId }),
  };
}

const SORT_COLUMNS: Record<ProjectSort, SQL> = {
  name: sql`lower(${projects.name})`,
  project_number: sql`${projects.projectNumber}`,
  status: sql`${projects.status}`,
};

/**
 * Projects the actor may see, sorted on the server. `companyId` narrows a super-admin's list;
 * everyone else always gets their own company's, whatever they name.
 */
export async function listProjects(
  db: Db,
  actor: Actor,
  opts: { companyId?: string; sort: ProjectSort; dir: "asc" | "desc" },
): Promise<Project[]> {
  const order = opts.dir === "desc" ? desc : asc;
  const rows = await selectProjects(db)
    .where(
      and(
        visible(actor),
        opts.companyId && choosesCompany(actor) ? eq(projects.companyId, opts.companyId) : undefined,
      ),
    )
    // Projects without a number sort last either way; ties fall back to the name, then the id.
    .orderBy(
      ...(opts.sort === "project_number" ? [sql`${projects.projectNumber} is null`] : []),
      order(SORT_COLUMNS[opts.sort]),
      asc(SORT_COLUMNS.name),
      asc(projects.id),
    );
  return rows.map((r) => present(actor, r));
}

/** One project the actor may see, or 404 (another company's, or a client-user's other clients'). */
export async function getProject(db: Db, actor: Actor, id: string): Promise<Project> {
  const [row] = await selectProjects(db).where(and(eq(projects.id, id), visible(actor)));
  if (!row) throw notFound("Project");
  return present(actor, row);
}

export interface ProjectInput {
  name: string;
  project_number: string | null;
  client_name: string | null;
  status?: ProjectStatus;
  /** Undefined leaves the start date as it is; "" or null clears it. */
  start_date?: string | null;
}

/**
 * Creates a project with one permit per active template of its company, all in one transaction:
 * a typed client name is matched (case-insensitively) or created, each permit gets its audit
 * "create" entry, and if anything fails nothing is left behind.
 */
export async function createProject(
  db: Db,
  actor: Actor,
  companyId: string,
  input: ProjectInput,
): Promise<Project> {
  const company = await assertCompanyExists(db, companyId);
  const id = await db.transaction(async (tx) => {
    const client = input.client_name
      ? await findOrCreateClientByName(tx, actor, companyId, input.client_name)
      : null;
    const [project] = await tx
      .insert(projects)
      .values({
        companyId,
        clientId: client?.id ?? null,
        name: input.name,
        projectNumber: input.project_number,
        status: input.status,
        startDate: input.start_date || null,
      })
      .returning();
    const templates = await tx
      .select()
      .from(permitTemplates)
      .where(and(eq(permitTemplates.companyId, companyId), eq(permitTemplates.active, true)))
      .orderBy(sql`lower(${permitTemplates.name})`, permitTemplates.id);
    if (templates.length) {
      const today = todayIn(company.timeZone);
      const prefix = project!.projectNumber || "PRJ";
      const created = await tx
        .insert(permits)
        .values(
          templates.map((t, i) => ({
            companyId,
            projectId: project!.id,
            clientId: project!.clientId,
            permitNumber: `${prefix}-AUTO-${i + 1}`,
            permitName: t.name,
            agency: t.agency,
            status: t.status,
            recordType: "permit",
            startDate: today,
            // The template's expiry defaults (issue 11).
            expiryRule: t.expiryRule,
            expiryDays: t.expiryDays,
            renewalLeadDays: t.renewalLeadDays,
            createdBy: actor.userId,
          })),
        )
        .returning({ id: permits.id, companyId: permits.companyId, permitNumber: permits.permitNumber });
      for (const permit of created) {
        await recordPermitAudit(tx, actor, permit, [{ action: "create", newValue: permit.permitNumber }]);
      }
    }
    await recordEvent(tx, actor, {
      action: "create",
      entityType: "project",
      entityId: project!.id,
      companyId,
      details: { name: input.name, templatePermits: templates.length },
    });
    return project!.id;
  });
  return getProject(db, actor, id);
}

/**
 * Updates a project. A changed client is copied onto the project's permits in the same
 * transaction (permits.client_id scopes what client-users see), with an audit entry per permit.
 */
export async function updateProject(
  db: Db,
  actor: Actor,
  project: Project,
  input: ProjectInput,
): Promise<Project> {
  await db.transaction(async (tx) => {
    const client = input.client_name
      ? await findOrCreateClientByName(tx, actor, project.company_id, input.client_name)
      : null;
    const clientId = client?.id ?? null;
    await tx
      .update(projects)
      .set({
        name: input.name,
        projectNumber: input.project_number,
        clientId,
        ...(input.status ? { status: input.status } : {}),
        ...(input.start_date !== undefined ? { startDate: input.start_date || null } : {}),
      })
      .where(eq(projects.id, project.id));
    if (clientId !== project.client_id) {
      const moved = await tx
        .update(permits)
        .set({ clientId })
        .where(eq(permits.projectId, project.id))
        .returning({ id: permits.id, companyId: permits.companyId });
      for (const permit of moved) {
        await recordPermitAudit(tx, actor, permit, [
          { action: "update", field: "client", oldValue: project.client_name, newValue: client?.name },
        ]);
      }
    }
    const changes = {
      name: [project.name, input.name],
      project_number: [project.project_number, input.project_number],
      client: [project.client_name, client?.name ?? null],
      status: [project.status, input.status ?? project.status],
    };
    await recordEvent(tx, actor, {
      action: "update",
      entityType: "project",
      entityId: project.id,
      companyId: project.company_id,
      details: Object.fromEntries(Object.entries(changes).filter(([, [before, after]]) => before !== after)),
    });
  });
  return getProject(db, actor, project.id);
}

/** Saves a status picked in the projects table or on the dashboard. */
export async function setProjectStatus(
  db: Db,
  actor: Actor,
  project: Project,
  status: ProjectStatus,
): Promise<Project> {
  await db.transaction(async (tx) => {
    await tx.update(projects).set({ status }).where(eq(projects.id, project.id));
    await recordEvent(tx, actor, {
      action: "update",
      entityType: "project",
      entityId: project.id,
      companyId: project.company_id,
      details: { status: [project.status, status] },
    });
  });
  return getProject(db, actor, project.id);
}

/**
 * Deletes a project; its permits (with their comments and attachments) go with it by cascade.
 * Each permit's audit trail gets a "delete" entry, which outlives the permit. Returns the storage
 * keys of the removed attachments, for the caller to delete once the transaction has committed.
 */
export async function deleteProject(db: Db, actor: Actor, project: Project): Promise<string[]> {
  return db.transaction(async (tx) => {
    const doomed = await tx
      .select({ id: permits.id, companyId: permits.companyId, permitNumber: permits.permitNumber })
      .from(permits)
      .where(eq(permits.projectId, project.id));
    const files = await tx
      .select({ key: attachments.storageKey })
      .from(attachments)
      .innerJoin(permits, eq(permits.id, attachments.permitId))
      .where(eq(permits.projectId, project.id));
    for (const permit of doomed) {
      await recordPermitAudit(tx, actor, permit, [
        { action: "delete", oldValue: permit.permitNumber, newValue: `deleted with project ${project.name}` },
      ]);
    }
    await tx.delete(projects).where(eq(projects.id, project.id));
    await recordEvent(tx, actor, {
      action: "delete",
      entityType: "project",
      entityId: project.id,
      companyId: project.company_id,
      details: { name: project.name, permitsDeleted: doomed.length },
    });
    return files.map((f) => f.key);
  });
}

/** The project dashboard: its non-archived permits (N/A last), their categories and a summary. */
/** A project's permit as the dashboard reads it (from JSON: dates as text, createdAt as ISO text). */
interface DashboardPermitRow {
  id: string;
  permitNumber: string;
  permitName: string;
  agency: string | null;
  status: string;
  startDate: string | null;
  permitApplicationDate: string | null;
  expirationDate: string | null;
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
      'permitApplicationDate', ${p.permitApplicationDate}, 'expirationDate', ${p.expirationDate},
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
  const statement = builtOnce(db, `project_dashboard_${scopeShape(scope)}`, (name) =>
    selectProjects(db, { timeZone: companies.timeZone, dashboardPermits: dashboardPermitsColumn(actor) })
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
  return { project: present(actor, row), timeZone: row.timeZone, permits: row.dashboardPermits };
}

/** The dashboard of a project found by findProjectDashboard(). */
export function projectDashboard({
  project,
  timeZone,
  permits: rows,
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
      display_status: isNa ? r.status : displayPermitStatus(r.status, r.expirationDate, today),
      ...dates,
      // N/A permits are not needed, so they count in no category and raise no alarm.
      category: isNa ? null : projectCategory(dates),
      urgency: isNa ? null : urgency(r.expirationDate, today),
    };
  });
  list.sort((a, b) => Number(a.status === "N/A") - Number(b.status === "N/A"));

  const counted = list.filter((p) => p.status !== "N/A");
  const upcoming = counted
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
  };
}
