import { asc, eq, sql } from "drizzle-orm";
import { choosesCompany, scopeConditions, scopeOf, type Actor } from "../../access/actor.ts";
import { canBeResponsible } from "../../access/policies/permit.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { clients, companies, permits, projects, users } from "../../db/schema.ts";
import type { PermitFilterOptions } from "../../../shared/schemas/permit-options.ts";
import { permitScope } from "./permit-view.query.ts";
import { userNameSql } from "./permit-sql.ts";

/** Most choices one filter offers; beyond it the search box is the way in. */
export const FILTER_OPTIONS_MAX = 2000;

/**
 * GET /api/permits/filter-options: the choices of the list's Project, Client, Agency and Responsible
 * filters, within the actor's scope: a client-user gets its clients, their projects and the
 * agencies of permits it can see.
 */
export async function filterOptions(db: Db, actor: Actor): Promise<PermitFilterOptions> {
  const scope = scopeOf(actor);
  const namesCompany = choosesCompany(actor);
  const [projectRows, clientRows, agencyRows, responsibleRows] = await Promise.all([
    db
      .select({
        id: projects.id,
        name: projects.name,
        project_number: projects.projectNumber,
        client_id: projects.clientId,
        company_name: namesCompany ? companies.name : sql<string | null>`null`,
      })
      .from(projects)
      .innerJoin(companies, eq(companies.id, projects.companyId))
      .where(scopeConditions(scope, { companyId: projects.companyId, clientId: projects.clientId }))
      .orderBy(asc(projects.name), asc(companies.name), asc(projects.id))
      .limit(FILTER_OPTIONS_MAX),
    db
      .select({
        id: clients.id,
        name: clients.name,
        company_name: namesCompany ? companies.name : sql<string | null>`null`,
      })
      .from(clients)
      .innerJoin(companies, eq(companies.id, clients.companyId))
      .where(scopeConditions(scope, { companyId: clients.companyId, clientId: clients.id }))
      .orderBy(asc(clients.name), asc(companies.name), asc(clients.id))
      .limit(FILTER_OPTIONS_MAX),
    queryRows<{ agency: string }>(
      db,
      sql`select distinct btrim(p.agency) as agency from ${permits} p
          where ${scope.companyId ? sql`p.company_id = ${scope.companyId}` : sql`true`}
            and ${scope.clientIds ? (scope.clientIds.length ? sql`p.client_id in ${scope.clientIds}` : sql`false`) : sql`true`}
            and p.status <> 'N/A' and btrim(coalesce(p.agency, '')) <> ''
          order by 1 limit ${FILTER_OPTIONS_MAX}`,
    ),
    db
      .selectDistinct({
        id: users.id,
        name: userNameSql(users),
        company_name: namesCompany ? companies.name : sql<string | null>`null`,
      })
      .from(permits)
      .innerJoin(users, eq(users.id, permits.responsibleUserId))
      .innerJoin(companies, eq(companies.id, permits.companyId))
      .where(permitScope(actor))
      .limit(FILTER_OPTIONS_MAX),
  ]);
  const byName = (a: { name: string; company_name: string | null }, b: typeof a) =>
    a.name.localeCompare(b.name) || (a.company_name ?? "").localeCompare(b.company_name ?? "");
  return {
    projects: projectRows,
    clients: clientRows,
    agencies: agencyRows.map((r) => r.agency),
    responsible: responsibleRows.sort(byName),
    can_be_responsible: canBeResponsible(actor),
  };
}
