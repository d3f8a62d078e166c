import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { choosesCompany, scopeConditions, scopeOf, type Actor } from "../../access/actor.ts";
import { projectCan } from "../../access/policies/project.ts";
import type { Db } from "../../db/client.ts";
import { clients, companies, permits, projects } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import { displayProjectStatus, type ProjectStatus } from "../../../shared/domain/statuses.ts";
import type { Project, ProjectSort } from "../../../shared/schemas/projects.ts";

// Projects as their readers see them: the list, one project, and the row every answer is made of.

const permitCount = sql<number>`(select count(*)::int from ${permits} where ${permits.projectId} = ${projects.id})`;

export function selectProjects<Extra extends Record<string, SQL.Aliased | SQL | PgColumn>>(
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
export type ProjectRow = Awaited<ReturnType<typeof selectProjects>>[number];

/** What a project's readers may see: a client-user only its clients' projects. */
const visible = (actor: Actor) =>
  scopeConditions(scopeOf(actor), { companyId: projects.companyId, clientId: projects.clientId });

export function present(actor: Actor, row: ProjectRow): Project {
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
