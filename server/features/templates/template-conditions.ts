import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { templateConditions } from "../../db/schema.ts";
import { scheduleBrief } from "../../../shared/domain/condition-schedule.ts";
import type { EveryUnit, EvidenceKind, OffsetUnit, ScheduleKind } from "../../../shared/domain/conditions.ts";
import type { TemplateCondition, TemplateConditionInput } from "../../../shared/schemas/conditions.ts";

// A template's conditions (issue 29): relative schedules (a 'Once' due so many days after the permit
// is made, an 'Every' from that day, a milestone without its date, an event kind), replaced as a set.

export type TemplateConditionRow = typeof templateConditions.$inferSelect;

/** "Once, 14 days after the permit is made", "Every 7 days from the permit's creation", "48 hours before Pour". */
export function templateScheduleText(c: {
  schedule: ScheduleKind;
  dueDays: number | null;
  interval: number | null;
  unit: EveryUnit | null;
  offsetAmount: number | null;
  offsetUnit: OffsetUnit | null;
  milestoneName: string | null;
  eventKind: string | null;
}): string {
  const brief = scheduleBrief(c);
  if (c.schedule === "once") {
    const days = c.dueDays ?? 0;
    return days === 0
      ? "Once, due the day the permit is made"
      : `Once, due ${days} day${days === 1 ? "" : "s"} after the permit is made`;
  }
  if (c.schedule === "every") return `${brief} from the day the permit is made`;
  return brief;
}

export function presentTemplateCondition(row: TemplateConditionRow): TemplateCondition {
  const c = {
    schedule: row.schedule as ScheduleKind,
    dueDays: row.dueDays,
    interval: row.everyInterval,
    unit: row.everyUnit as EveryUnit | null,
    offsetAmount: row.offsetAmount,
    offsetUnit: row.offsetUnit as OffsetUnit | null,
    milestoneName: row.milestoneName,
    eventKind: row.eventKind,
  };
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    evidence: row.evidence as EvidenceKind,
    ...c,
    scheduleText: templateScheduleText(c),
  };
}

/** The stored columns of an input: only the fields its schedule uses. */
function columnsOf(input: TemplateConditionInput) {
  const s = input.schedule;
  const event = s === "before_event" || s === "after_event";
  return {
    title: input.title,
    description: input.description,
    evidence: input.evidence,
    schedule: s,
    dueDays: s === "once" ? (input.dueDays ?? 0) : null,
    everyInterval: s === "every" ? (input.interval ?? null) : null,
    everyUnit: s === "every" ? (input.unit ?? null) : null,
    offsetAmount: event ? (input.offsetAmount ?? null) : null,
    offsetUnit: event ? (input.offsetUnit ?? null) : null,
    milestoneName: s === "before_event" ? input.milestoneName : null,
    eventKind: s === "after_event" ? input.eventKind : null,
  };
}

/** The conditions of templates, by template id, in their order (one statement). */
export async function conditionsOfTemplates(
  db: Db,
  templateIds: string[],
): Promise<Map<string, TemplateConditionRow[]>> {
  const byTemplate = new Map<string, TemplateConditionRow[]>();
  if (!templateIds.length) return byTemplate;
  const rows = await db
    .select()
    .from(templateConditions)
    .where(inArray(templateConditions.templateId, templateIds))
    .orderBy(asc(templateConditions.position), asc(templateConditions.createdAt), asc(templateConditions.id));
  for (const r of rows) {
    const list = byTemplate.get(r.templateId) ?? [];
    list.push(r);
    byTemplate.set(r.templateId, list);
  }
  return byTemplate;
}

/** Replaces a template's conditions with `inputs` (in the caller's transaction); returns the new rows. */
export async function replaceTemplateConditions(
  tx: Db,
  template: { id: string; companyId: string },
  inputs: TemplateConditionInput[],
): Promise<TemplateConditionRow[]> {
  await tx.delete(templateConditions).where(eq(templateConditions.templateId, template.id));
  if (!inputs.length) return [];
  return tx
    .insert(templateConditions)
    .values(
      inputs.map((input, position) => ({
        companyId: template.companyId,
        templateId: template.id,
        position,
        ...columnsOf(input),
      })),
    )
    .returning()
    .then((rows) => rows.sort((a, b) => a.position - b.position));
}

/** What the template's audit event records of its conditions: their titles and schedules. */
export const conditionsAuditDetail = (rows: TemplateConditionRow[]) =>
  rows.map((r) => `${r.title} (${presentTemplateCondition(r).scheduleText})`);
