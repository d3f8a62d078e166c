import { and, eq, inArray } from "drizzle-orm";
import { RESPONSIBLE_PERSON_ROLES } from "../../access/policies/permit.ts";
import type { Db } from "../../db/client.ts";
import { companies, projects, users } from "../../db/schema.ts";
import { validation } from "../../errors.ts";
import { PROJECT_REQUIRED_MESSAGE } from "../../../shared/schemas/permit-input.ts";

// The permit form's checks that read the database (the company, its project, the responsible
// person), inside the save's transaction (permits.service.ts).

export const RESPONSIBLE_NOT_STAFF = "The responsible person must be an active staff user of this company.";

/** The company's time zone; a company that does not exist answers 400 on company_id. */
export async function companyZone(tx: Db, companyId: string): Promise<string> {
  const [company] = await tx
    .select({ timeZone: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!company) throw validation({ company_id: "Company not found." });
  return company.timeZone;
}

/**
 * The project a permit goes under: one of the company's own (another company's answers like a
 * missing one), and required as soon as the company has any project (spec section 5).
 */
export async function resolveProject(tx: Db, companyId: string, projectId: string | null) {
  if (!projectId) {
    const [any] = await tx
      .select({ id: projects.id })
      .from(projects)
      .where(eq(projects.companyId, companyId))
      .limit(1);
    if (any) throw validation({ project_id: PROJECT_REQUIRED_MESSAGE });
    return null;
  }
  const [project] = await tx
    .select({ id: projects.id, clientId: projects.clientId })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.companyId, companyId)));
  if (!project) throw validation({ project_id: "Project not found in this company." });
  return project;
}

/**
 * The responsible person must be an active staff user (company-admin or company-user) of the
 * permit's company; anyone else, including another company's user, answers 400 on the field.
 */
export async function assertResponsible(tx: Db, companyId: string, userId: string) {
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, userId),
        eq(users.companyId, companyId),
        eq(users.banned, false),
        inArray(users.role, RESPONSIBLE_PERSON_ROLES),
      ),
    );
  if (!user) throw validation({ responsible_user_id: RESPONSIBLE_NOT_STAFF });
}
