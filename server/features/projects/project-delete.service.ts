import { eq } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { recordEvent, recordPermitAudit } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import { attachments, permits, projects } from "../../db/schema.ts";
import type { Project } from "../../../shared/schemas/projects.ts";

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
