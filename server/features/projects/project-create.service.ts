import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { recordEvent, recordPermitAudit } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import { permits, permitTemplates, projects } from "../../db/schema.ts";
import { todayIn } from "../../../shared/domain/dates.ts";
import type { Project } from "../../../shared/schemas/projects.ts";
import { addDays } from "../../../shared/domain/dates.ts";
import type { EveryUnit, EvidenceKind, OffsetUnit, ScheduleKind } from "../../../shared/domain/conditions.ts";
import { assertCompanyExists, findOrCreateClientByName } from "../clients/index.ts";
import { addConditions, type NewCondition } from "../conditions/index.ts";
import { conditionsOfTemplates, type TemplateConditionRow } from "../templates/index.ts";
import { emitWebhookEvents } from "../webhooks/index.ts";
import { getProject, type ProjectInput } from "./projects.repository.ts";

/**
 * A template's condition made absolute on a permit made `today` (company-local): 'Once' due so many
 * days later; 'Every' from today; 'Before an event' without its milestone's date (no task until one
 * is entered); 'After an event' as is (events make its tasks). The owner is the permit's responsible
 * person (addConditions resolves null).
 */
function conditionOfTemplate(c: TemplateConditionRow, permitId: string, today: string): NewCondition {
  const schedule = c.schedule as ScheduleKind;
  return {
    permitId,
    title: c.title,
    description: c.description,
    ownerUserId: null,
    evidence: c.evidence as EvidenceKind,
    schedule,
    dueDate: schedule === "once" ? addDays(today, c.dueDays ?? 0) : null,
    interval: c.everyInterval,
    unit: c.everyUnit as EveryUnit | null,
    startsOn: schedule === "every" ? today : null,
    endsOn: null,
    offsetAmount: c.offsetAmount,
    offsetUnit: c.offsetUnit as OffsetUnit | null,
    milestoneName: c.milestoneName,
    milestoneAt: null,
    eventKind: c.eventKind,
  };
}

/**
 * Creates a project with one permit per active template of its company, all in one transaction:
 * a typed client name is matched (case-insensitively) or created, each permit gets its audit
 * "create" entry and its template's conditions (issue 29), and if anything fails nothing is left
 * behind.
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
      // Issue 29: each template's conditions onto the permit made from it, with their first tasks.
      const byNumber = new Map(created.map((p) => [p.permitNumber, p.id]));
      const conditions = await conditionsOfTemplates(
        tx,
        templates.map((t) => t.id),
      );
      const copies = templates.flatMap((t, i) => {
        const permitId = byNumber.get(`${prefix}-AUTO-${i + 1}`);
        return permitId
          ? (conditions.get(t.id) ?? []).map((c) => conditionOfTemplate(c, permitId, today))
          : [];
      });
      await addConditions(tx, actor, { companyId, timeZone: company.timeZone, today, conditions: copies });
      // Issue 30: the template permits in one statement.
      await emitWebhookEvents(
        tx,
        companyId,
        "permit.created",
        created.map((p) => ({ permitId: p.id })),
      );
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
