import { eq } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { recordEvent, recordPermitAudit } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import { permits, projects } from "../../db/schema.ts";
import type { ProjectStatus } from "../../../shared/domain/statuses.ts";
import type { Project } from "../../../shared/schemas/projects.ts";
import { findOrCreateClientByName } from "../clients/index.ts";
import { getProject, type ProjectInput } from "./projects.repository.ts";

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
