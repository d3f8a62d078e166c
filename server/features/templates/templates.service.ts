import { and, eq, ne, sql } from "drizzle-orm";
import { actorCan, inCompanyScope, scopeOf, type Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { permitTemplates } from "../../db/schema.ts";
import { conflict, notFound } from "../../errors.ts";
import type { TemplateStatus } from "../../../shared/domain/statuses.ts";
import type { Template } from "../../../shared/schemas/templates.ts";
import { recordEvent } from "../audit/audit.service.ts";
import { assertCompanyExists } from "../clients/clients.service.ts";

type TemplateRow = typeof permitTemplates.$inferSelect;

function present(actor: Actor, row: TemplateRow): Template {
  const canManage = actorCan(actor, "templates.manage");
  return {
    id: row.id,
    company_id: row.companyId,
    name: row.name,
    agency: row.agency,
    status: row.status === "N/A" ? "N/A" : "Required",
    active: row.active,
    can: { edit: canManage, delete: canManage },
  };
}

/** A company's templates by name. */
export async function listTemplates(db: Db, actor: Actor, companyId: string): Promise<Template[]> {
  await assertCompanyExists(db, companyId);
  const rows = await db
    .select()
    .from(permitTemplates)
    .where(eq(permitTemplates.companyId, companyId))
    .orderBy(sql`lower(${permitTemplates.name})`, permitTemplates.id);
  return rows.map((r) => present(actor, r));
}

/** One template within the actor's company scope, or 404. */
export async function getTemplate(db: Db, actor: Actor, id: string): Promise<Template> {
  const [row] = await db.select().from(permitTemplates).where(eq(permitTemplates.id, id));
  if (!row || !inCompanyScope(scopeOf(actor), row.companyId)) throw notFound("Template");
  return present(actor, row);
}

/**
 * Two templates of one name would give every new project two identical permits, so names are
 * unique within a company (case-insensitively); checked inside the write's transaction.
 */
async function assertNameFree(tx: Db, companyId: string, name: string, exceptId?: string) {
  const [taken] = await tx
    .select({ id: permitTemplates.id })
    .from(permitTemplates)
    .where(
      and(
        eq(permitTemplates.companyId, companyId),
        sql`lower(${permitTemplates.name}) = lower(${name})`,
        exceptId ? ne(permitTemplates.id, exceptId) : undefined,
      ),
    );
  if (taken) {
    const message = `A template named "${name}" already exists.`;
    throw conflict(message, { name: message });
  }
}

export interface TemplateInput {
  name: string;
  agency: string | null;
  status: TemplateStatus;
  active: boolean;
}

export async function createTemplate(
  db: Db,
  actor: Actor,
  companyId: string,
  input: TemplateInput,
): Promise<Template> {
  await assertCompanyExists(db, companyId);
  const row = await db.transaction(async (tx) => {
    await assertNameFree(tx, companyId, input.name);
    const [created] = await tx
      .insert(permitTemplates)
      .values({
        companyId,
        name: input.name,
        agency: input.agency,
        status: input.status,
        active: input.active,
      })
      .returning();
    await recordEvent(tx, actor, {
      action: "create",
      entityType: "permit_template",
      entityId: created!.id,
      companyId,
      details: { name: input.name, agency: input.agency, status: input.status, active: input.active },
    });
    return created!;
  });
  return present(actor, row);
}

/** Saves the inline edit (name and agency), the status switch or the Active toggle. */
export async function updateTemplate(
  db: Db,
  actor: Actor,
  template: Template,
  changes: Partial<Pick<TemplateInput, "name" | "agency" | "status" | "active">>,
): Promise<Template> {
  const row = await db.transaction(async (tx) => {
    if (changes.name !== undefined) await assertNameFree(tx, template.company_id, changes.name, template.id);
    const [updated] = await tx
      .update(permitTemplates)
      .set(changes)
      .where(eq(permitTemplates.id, template.id))
      .returning();
    const diff = Object.fromEntries(
      Object.entries(changes)
        .filter(([key, value]) => value !== undefined && template[key as keyof typeof changes] !== value)
        .map(([key, value]) => [key, [template[key as keyof typeof changes], value]]),
    );
    await recordEvent(tx, actor, {
      action: "update",
      entityType: "permit_template",
      entityId: template.id,
      companyId: template.company_id,
      details: diff,
    });
    return updated!;
  });
  return present(actor, row);
}

/** Deletes a template; permits already made from it stay. */
export async function deleteTemplate(db: Db, actor: Actor, template: Template): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(permitTemplates).where(eq(permitTemplates.id, template.id));
    await recordEvent(tx, actor, {
      action: "delete",
      entityType: "permit_template",
      entityId: template.id,
      companyId: template.company_id,
      details: { name: template.name },
    });
  });
}
