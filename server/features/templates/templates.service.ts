import { and, eq, ne, sql } from "drizzle-orm";
import { inCompanyScope, scopeOf, type Actor } from "../../access/actor.ts";
import { templateCan } from "../../access/policies/template.ts";
import type { Db } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { permitTemplates } from "../../db/schema.ts";
import { conflict, notFound } from "../../errors.ts";
import type { ExpiryRule } from "../../../shared/domain/lifecycle.ts";
import type { TemplateStatus } from "../../../shared/domain/statuses.ts";
import { storedExpiryDays } from "../../../shared/schemas/expiry-fields.ts";
import type { Template } from "../../../shared/schemas/templates.ts";
import { recordEvent } from "../../audit/audit-writer.ts";
import { assertCompanyExists } from "../clients/index.ts";
import type { TemplateConditionInput } from "../../../shared/schemas/conditions.ts";
import {
  conditionsAuditDetail,
  conditionsOfTemplates,
  presentTemplateCondition,
  replaceTemplateConditions,
} from "./template-conditions.ts";

type TemplateRow = typeof permitTemplates.$inferSelect;
type ConditionRows = Awaited<ReturnType<typeof replaceTemplateConditions>>;

function present(actor: Actor, row: TemplateRow, conditions: ConditionRows): Template {
  return {
    id: row.id,
    company_id: row.companyId,
    name: row.name,
    agency: row.agency,
    status: row.status === "N/A" ? "N/A" : "Required",
    active: row.active,
    expiry_rule: row.expiryRule as ExpiryRule,
    expiry_days: row.expiryDays,
    renewal_lead_days: row.renewalLeadDays,
    conditions: conditions.map(presentTemplateCondition),
    can: templateCan(actor, { company_id: row.companyId }),
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
  const conditions = await conditionsOfTemplates(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => present(actor, r, conditions.get(r.id) ?? []));
}

/** One template within the actor's company scope, or 404. */
export async function getTemplate(db: Db, actor: Actor, id: string): Promise<Template> {
  const [row] = await db.select().from(permitTemplates).where(eq(permitTemplates.id, id));
  if (!row || !inCompanyScope(scopeOf(actor), row.companyId)) throw notFound("Template");
  const conditions = await conditionsOfTemplates(db, [row.id]);
  return present(actor, row, conditions.get(row.id) ?? []);
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
  if (taken) throw nameTaken(name);
}

function nameTaken(name: string) {
  const message = `A template named "${name}" already exists.`;
  return conflict(message, { name: message });
}

/** The check above cannot see a concurrent create; the unique index can, and answers the same 409. */
const nameConflict = (name: string | undefined) => (err: unknown) => {
  if (name !== undefined && uniqueViolation(err) === "permit_templates_company_name_uq")
    throw nameTaken(name);
  throw err;
};

export interface TemplateInput {
  name: string;
  agency: string | null;
  status: TemplateStatus;
  active: boolean;
  expiry_rule: ExpiryRule;
  expiry_days: number | null;
  renewal_lead_days: number | null;
  /** Issue 29: the template's conditions (create: all of them; update: replaces them when sent). */
  conditions?: TemplateConditionInput[];
}

/** The template's expiry defaults as columns; the days only under 'after_inspection'. */
const expiryColumns = (input: Pick<TemplateInput, "expiry_rule" | "expiry_days" | "renewal_lead_days">) => ({
  expiryRule: input.expiry_rule,
  expiryDays: storedExpiryDays(input.expiry_rule, input.expiry_days),
  renewalLeadDays: input.renewal_lead_days,
});

export async function createTemplate(
  db: Db,
  actor: Actor,
  companyId: string,
  input: TemplateInput,
): Promise<Template> {
  await assertCompanyExists(db, companyId);
  const { row, conditions } = await db
    .transaction(async (tx) => {
      await assertNameFree(tx, companyId, input.name);
      const [created] = await tx
        .insert(permitTemplates)
        .values({
          companyId,
          name: input.name,
          agency: input.agency,
          status: input.status,
          active: input.active,
          ...expiryColumns(input),
        })
        .returning();
      const conditions = await replaceTemplateConditions(tx, created!, input.conditions ?? []);
      await recordEvent(tx, actor, {
        action: "create",
        entityType: "permit_template",
        entityId: created!.id,
        companyId,
        details: {
          name: input.name,
          agency: input.agency,
          status: input.status,
          active: input.active,
          ...expiryColumns(input),
          ...(conditions.length ? { conditions: conditionsAuditDetail(conditions) } : {}),
        },
      });
      return { row: created!, conditions };
    })
    .catch(nameConflict(input.name));
  return present(actor, row, conditions);
}

/**
 * Saves the inline edit (name and agency, and the expiry defaults when the rule is sent), the
 * status switch or the Active toggle.
 */
export async function updateTemplate(
  db: Db,
  actor: Actor,
  template: Template,
  input: Partial<
    Pick<
      TemplateInput,
      "name" | "agency" | "status" | "active" | "expiry_days" | "renewal_lead_days" | "conditions"
    >
  > & { expiry_rule?: ExpiryRule },
): Promise<Template> {
  const { expiry_rule, expiry_days, renewal_lead_days, conditions: newConditions, ...rest } = input;
  // Snake-case keys like the Template's own, so the audit diff below compares like with like.
  const expiry = expiry_rule
    ? {
        expiry_rule,
        expiry_days: storedExpiryDays(expiry_rule, expiry_days ?? null),
        renewal_lead_days: renewal_lead_days ?? null,
      }
    : null;
  const changes = { ...rest, ...expiry };
  const { row, conditions } = await db
    .transaction(async (tx) => {
      if (changes.name !== undefined)
        await assertNameFree(tx, template.company_id, changes.name, template.id);
      const [updated] = await tx
        .update(permitTemplates)
        .set({ ...rest, ...(expiry ? expiryColumns(expiry) : {}) })
        .where(eq(permitTemplates.id, template.id))
        .returning();
      const diff: Record<string, unknown> = Object.fromEntries(
        Object.entries(changes)
          .filter(([key, value]) => value !== undefined && template[key as keyof typeof changes] !== value)
          .map(([key, value]) => [key, [template[key as keyof typeof changes], value]]),
      );
      // Issue 29: a sent set replaces the conditions (permits made earlier keep theirs).
      const conditions = newConditions
        ? await replaceTemplateConditions(tx, updated!, newConditions)
        : ((await conditionsOfTemplates(tx, [template.id])).get(template.id) ?? []);
      if (newConditions) {
        const before = template.conditions.map((c) => `${c.title} (${c.scheduleText})`);
        const after = conditionsAuditDetail(conditions);
        if (JSON.stringify(before) !== JSON.stringify(after)) diff.conditions = [before, after];
      }
      await recordEvent(tx, actor, {
        action: "update",
        entityType: "permit_template",
        entityId: template.id,
        companyId: template.company_id,
        details: diff,
      });
      return { row: updated!, conditions };
    })
    .catch(nameConflict(changes.name));
  return present(actor, row, conditions);
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
