import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { choosesCompany, scopeConditions, scopeOf, type Actor } from "../../access/actor.ts";
import { RESPONSIBLE_PERSON_ROLES } from "../../access/policies/permit.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { clients, companies, permits, projects, users } from "../../db/schema.ts";
import type { PermitFormOptions } from "../../../shared/schemas/permit-options.ts";
import { FILTER_OPTIONS_MAX } from "./permit-filter-options.query.ts";
import { userNameSql } from "./permit-sql.ts";

// What the permit form offers: GET /api/permits/form-options and /api/permits/agencies.

/** Distinct non-empty agencies of a company, for the form's suggestions. */
export async function companyAgencies(db: Db, companyId: string): Promise<string[]> {
  const rows = await queryRows<{ agency: string }>(
    db,
    sql`select distinct btrim(${permits.agency}) as agency from ${permits}
        where ${permits.companyId} = ${companyId} and btrim(coalesce(${permits.agency}, '')) <> ''
        order by 1 limit 1000`,
  );
  return rows.map((r) => r.agency);
}

/**
 * The permit form's choices: the company's projects (with their clients), its active staff (the
 * Responsible Person choices) and, for a super-admin, the companies.
 */
export async function formOptions(
  db: Db,
  actor: Actor,
  companyId: string | null,
): Promise<PermitFormOptions> {
  const [projectRows, companyRows, staffRows] = await Promise.all([
    companyId
      ? db
          .select({
            id: projects.id,
            name: projects.name,
            project_number: projects.projectNumber,
            client_id: projects.clientId,
            client_name: clients.name,
          })
          .from(projects)
          .leftJoin(clients, eq(clients.id, projects.clientId))
          .where(eq(projects.companyId, companyId))
          .orderBy(asc(projects.name), asc(projects.id))
      : [],
    choosesCompany(actor)
      ? db
          .select({ id: companies.id, name: companies.name })
          .from(companies)
          .orderBy(asc(companies.name), asc(companies.id))
      : [],
    companyId ? responsibleCandidates(db, companyId) : [],
  ]);
  return { company_id: companyId, projects: projectRows, companies: companyRows, staff: staffRows };
}

/** Who may be named a company's permits' responsible person: its active staff, by name. */
export async function responsibleCandidates(db: Db, companyId: string) {
  const name = userNameSql(users);
  return db
    .select({ id: users.id, name })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        eq(users.banned, false),
        inArray(users.role, RESPONSIBLE_PERSON_ROLES),
      ),
    )
    .orderBy(asc(sql`lower(${name})`), asc(users.id))
    .limit(FILTER_OPTIONS_MAX);
}

/** The company of a project the actor may see, else null (another company's project reveals nothing). */
export async function projectCompanyId(db: Db, actor: Actor, projectId: string): Promise<string | null> {
  const [row] = await db
    .select({ companyId: projects.companyId })
    .from(projects)
    .where(
      and(eq(projects.id, projectId), scopeConditions(scopeOf(actor), { companyId: projects.companyId })),
    );
  return row?.companyId ?? null;
}
