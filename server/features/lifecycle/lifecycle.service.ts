import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { canReadInternalNotes, lifecycleCan } from "../../access/policies/lifecycle.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { permitInspections, permits, permitTerms, reminderDeliveries } from "../../db/schema.ts";
import { AppError, validation } from "../../errors.ts";
import { recordPermitAudit, type PermitAuditEntry } from "../../audit/audit-writer.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import { formatDate } from "../../../shared/domain/format.ts";
import { recordStatus } from "../../../shared/domain/record-status.ts";
import { companyToday } from "../../time/company-today.ts";
import type { ExpiryRule, FinalStatus, TermKind } from "../../../shared/domain/lifecycle.ts";
import type {
  CloseInput,
  ExtensionInput,
  Inspection,
  InspectionInput,
  Lifecycle,
  RenewalInput,
} from "../../../shared/schemas/lifecycle.ts";
import { PERMIT_CLOSED_REASON } from "../../../shared/domain/conditions.ts";
import { closeOpenTasks, countOpenTasks } from "../task-closing/index.ts";
import { statusFacts, type PermitRow } from "../permits/index.ts";
import { groupTerms, type TermRow } from "./term-history.ts";
import { emitLifecycleEvent } from "./term-events.ts";

/**
 * The permit's lifecycle in one statement: the permit's own fields with its terms and inspections.
 * An internal fee, note, reason or inspection note leaves the database only for whoever may read
 * internal notes (issue 25): anyone else gets null in its place and the flag false.
 */
export async function loadLifecycle(db: Db, actor: Actor, permit: PermitRow): Promise<Lifecycle> {
  const staff = canReadInternalNotes(actor);
  const shown = (value: SQL, flag: SQL) => sql`case when ${staff}::boolean or not ${flag} then ${value} end`;
  // The flag of a value that is there: a term without a fee has no internal fee.
  const flag = (value: SQL, column: SQL) => sql`(${staff}::boolean and ${value} is not null and ${column})`;
  const [row] = await queryRows<{
    terms: TermRow[] | null;
    inspections: Inspection[] | null;
    zone: string | null;
    open_tasks: number;
  }>(
    db,
    sql`select
          (select c.time_zone from companies c where c.id = ${permit.companyId}) as zone,
          (select count(*)::int from condition_tasks ct where ct.permit_id = ${permit.id} and ct.status = 'open') as open_tasks,
          (select json_agg(json_build_object(
              'id', t.id, 'term_no', t.term_no, 'kind', t.kind, 'permit_number', t.permit_number,
              'issue_date', t.issue_date, 'expiration_date', t.expiration_date, 'ended_on', t.ended_on,
              'renewal_fee', ${shown(sql`t.renewal_fee::text`, sql`t.renewal_fee_internal`)},
              'renewal_fee_internal', ${flag(sql`t.renewal_fee`, sql`t.renewal_fee_internal`)},
              'note', ${shown(sql`t.note`, sql`t.note_internal`)}, 'note_internal', ${flag(sql`t.note`, sql`t.note_internal`)},
              'reason', ${shown(sql`t.reason`, sql`t.reason_internal`)},
              'reason_internal', ${flag(sql`t.reason`, sql`t.reason_internal`)},
              'created_by_name', t.created_by_name, 'created_at', t.created_at) order by t.seq)
           from permit_terms t where t.permit_id = ${permit.id}) as terms,
          (select json_agg(json_build_object(
              'id', i.id, 'inspection_type', i.inspection_type, 'date', i.inspected_on, 'result', i.result,
              'inspector', i.inspector, 'notes', ${shown(sql`i.notes`, sql`i.notes_internal`)},
              'notes_internal', ${flag(sql`i.notes`, sql`i.notes_internal`)}, 'created_by_name', i.created_by_name,
              'created_at', i.created_at) order by i.inspected_on desc, i.created_at desc)
           from permit_inspections i where i.permit_id = ${permit.id}) as inspections`,
  );
  return presentLifecycle(
    actor,
    permit,
    row?.terms ?? [],
    row?.inspections ?? [],
    row?.zone ?? "UTC",
    row?.open_tasks ?? 0,
  );
}

const iso = (v: string | Date) => (v instanceof Date ? v.toISOString() : new Date(v).toISOString());

function presentLifecycle(
  actor: Actor,
  p: PermitRow,
  terms: TermRow[],
  inspections: Inspection[],
  zone: string,
  openTasks: number,
): Lifecycle {
  return {
    term_no: p.termNo,
    permit_number: p.permitNumber,
    issue_date: p.issueDate,
    display_status: recordStatus(statusFacts(p), todayIn(zone)),
    expiration_date: p.expirationDate,
    expiry_rule: p.expiryRule as ExpiryRule,
    expiry_days: p.expiryDays,
    renewal_lead_days: p.renewalLeadDays,
    renew_by_date: p.renewByDate,
    acknowledged:
      p.acknowledgedAt && p.acknowledgedByName
        ? { by: p.acknowledgedByName, at: p.acknowledgedAt.toISOString() }
        : null,
    closed: p.closeDate
      ? { close_date: p.closeDate, final_status: (p.finalStatus as FinalStatus | null) ?? null }
      : null,
    // One entry per term, its extensions folded in (issue 25); the stored rows stay as they are.
    terms: groupTerms(
      terms.map((t) => ({ ...t, created_at: iso(t.created_at) })),
      zone,
      p.closeDate,
    ),
    inspections: inspections.map((i) => ({ ...i, created_at: iso(i.created_at) })),
    open_tasks: openTasks,
    can: lifecycleCan(actor, p),
  };
}

function assertLater(current: string | null, next: string, field = "new_expiration_date") {
  if (current && next <= current) {
    const message = `New Expiration Date must be after the current one (${formatDate(current)}).`;
    throw validation({ [field]: message }, message);
  }
}

/**
 * Reminders, escalations and overdue notices waiting to go out for the permit's old term or date
 * are cancelled: the new term or date gets its own from the next sweep (their keys include it).
 */
async function cancelPending(tx: Db, permitId: string, reason: string, kinds?: string[]) {
  await tx
    .update(reminderDeliveries)
    .set({ status: "cancelled", lastError: reason })
    .where(
      and(
        eq(reminderDeliveries.permitId, permitId),
        eq(reminderDeliveries.status, "pending"),
        kinds ? inArray(reminderDeliveries.kind, kinds) : undefined,
      ),
    );
}

async function addTerm(
  tx: Db,
  actor: Actor,
  p: PermitRow,
  row: {
    termNo: number;
    kind: TermKind;
    permitNumber: string;
    issueDate: string | null;
    expirationDate: string;
    renewalFee?: string | null;
    renewalFeeInternal?: boolean;
    note?: string | null;
    noteInternal?: boolean;
    reason?: string | null;
    reasonInternal?: boolean;
    inspectionId?: string | null;
  },
) {
  await tx.insert(permitTerms).values({
    companyId: p.companyId,
    permitId: p.id,
    createdBy: actor.userId,
    createdByName: actor.name,
    ...row,
  });
}

/** Audit entries for the permit fields a lifecycle step changed. */
function fieldChanges(action: string, before: PermitRow, after: Partial<PermitRow>): PermitAuditEntry[] {
  const entries: PermitAuditEntry[] = [];
  const fields: [keyof PermitRow, string][] = [
    ["expirationDate", "expiration_date"],
    ["issueDate", "issue_date"],
    ["permitNumber", "permit_number"],
  ];
  for (const [key, field] of fields) {
    if (key in after && after[key] !== before[key]) {
      entries.push({
        action,
        field,
        oldValue: before[key] as string | null,
        newValue: after[key] as string | null,
      });
    }
  }
  return entries;
}

/** 'Save Renewal': closes the current term and starts the next one. */
export async function renewPermit(
  tx: Db,
  actor: Actor,
  p: PermitRow,
  input: RenewalInput,
): Promise<PermitRow> {
  assertLater(p.expirationDate, input.new_expiration_date);
  const today = await companyToday(tx, p.companyId);
  const termNo = p.termNo + 1;
  // Whoever may not read internal notes has the switches ignored (false), as a comment's.
  const feeInternal = input.renewal_fee_internal && canReadInternalNotes(actor);
  const noteInternal = input.note_internal && canReadInternalNotes(actor);
  const changes = {
    termNo,
    expirationDate: input.new_expiration_date,
    issueDate: input.new_issue_date ?? p.issueDate,
    permitNumber: input.new_permit_number ?? p.permitNumber,
  };
  await tx
    .update(permitTerms)
    .set({ endedOn: today })
    .where(
      and(eq(permitTerms.permitId, p.id), eq(permitTerms.termNo, p.termNo), isNull(permitTerms.endedOn)),
    );
  await addTerm(tx, actor, p, {
    termNo,
    kind: "renewal",
    permitNumber: changes.permitNumber,
    issueDate: input.new_issue_date,
    expirationDate: input.new_expiration_date,
    renewalFee: input.renewal_fee,
    renewalFeeInternal: feeInternal,
    note: input.note,
    noteInternal,
  });
  const [updated] = await tx
    .update(permits)
    .set({ ...changes, ...clearedAcknowledgement, updatedAt: new Date() })
    .where(eq(permits.id, p.id))
    .returning();
  await cancelPending(tx, p.id, "Permit renewed");
  await recordPermitAudit(tx, actor, p, [
    { action: "renew", field: "term", oldValue: p.termNo, newValue: termNo },
    ...fieldChanges("renew", p, changes),
    ...(input.renewal_fee
      ? [{ action: "renew", field: "renewal_fee", newValue: input.renewal_fee, internal: feeInternal }]
      : []),
    ...(input.note ? [{ action: "renew", field: "note", newValue: input.note, internal: noteInternal }] : []),
  ]);
  await emitLifecycleEvent(tx, "permit.renewed", updated!);
  return updated!;
}

const clearedAcknowledgement = { acknowledgedById: null, acknowledgedByName: null, acknowledgedAt: null };

/** 'Save Extension': the same term, a later date. */
export async function extendPermit(
  tx: Db,
  actor: Actor,
  p: PermitRow,
  input: ExtensionInput,
): Promise<PermitRow> {
  assertLater(p.expirationDate, input.new_expiration_date);
  const reasonInternal = input.reason_internal && canReadInternalNotes(actor);
  return applyExtension(tx, actor, p, input.new_expiration_date, { reason: input.reason, reasonInternal });
}

async function applyExtension(
  tx: Db,
  actor: Actor,
  p: PermitRow,
  expirationDate: string,
  why: { reason: string; reasonInternal: boolean; inspectionId?: string },
) {
  const { reason, reasonInternal } = why;
  await addTerm(tx, actor, p, {
    termNo: p.termNo,
    kind: "extension",
    permitNumber: p.permitNumber,
    issueDate: p.issueDate,
    expirationDate,
    reason,
    reasonInternal,
    inspectionId: why.inspectionId ?? null,
  });
  const [updated] = await tx
    .update(permits)
    .set({ expirationDate, ...clearedAcknowledgement, updatedAt: new Date() })
    .where(eq(permits.id, p.id))
    .returning();
  await cancelPending(tx, p.id, "Permit extended");
  await recordPermitAudit(tx, actor, p, [
    ...fieldChanges("extend", p, { expirationDate }),
    { action: "extend", field: "reason", newValue: reason, internal: reasonInternal },
  ]);
  await emitLifecycleEvent(tx, "permit.extended", updated!);
  return updated!;
}

/**
 * 'Save Inspection'. Under the rule 'Days after last passed inspection', a passed inspection moves
 * the expiration date to that many days after the latest passed one (an Extension in Terms, with
 * the inspection as its reason); it never moves it earlier.
 */
export async function recordInspection(
  tx: Db,
  actor: Actor,
  p: PermitRow,
  input: InspectionInput,
): Promise<PermitRow> {
  const today = await companyToday(tx, p.companyId);
  if (input.date > today)
    throw validation({ date: "Date cannot be in the future." }, "Date cannot be in the future.");
  const [inspection] = await tx
    .insert(permitInspections)
    .values({
      companyId: p.companyId,
      permitId: p.id,
      inspectionType: input.inspection_type,
      inspectedOn: input.date,
      result: input.result,
      inspector: input.inspector,
      notes: input.notes,
      notesInternal: input.notes_internal && canReadInternalNotes(actor),
      createdBy: actor.userId,
      createdByName: actor.name,
    })
    .returning({ id: permitInspections.id });
  await recordPermitAudit(tx, actor, p, [
    {
      action: "inspection",
      field: "inspection",
      newValue: `${input.inspection_type}: ${input.result} on ${input.date}`,
    },
  ]);
  if (p.expiryRule !== "after_inspection" || input.result !== "Passed" || !p.expiryDays) return p;
  const [last] = await queryRows<{ last: string }>(
    tx,
    sql`select max(inspected_on)::text as last from permit_inspections
          where permit_id = ${p.id} and result = 'Passed'`,
  );
  const next = addDays(last!.last, p.expiryDays);
  if (p.expirationDate && next <= p.expirationDate) return p;
  // The reason names only what the inspection shows to everyone: never internal.
  const reason = `${input.inspection_type} passed on ${input.date} (+${p.expiryDays} days)`;
  return applyExtension(tx, actor, p, next, { reason, reasonInternal: false, inspectionId: inspection!.id });
}

/**
 * 'Acknowledge': who and when, for the current term; it stops the term's routine reminders and
 * escalation for everyone (overdue notices go on until the permit is renewed or closed). Saying it
 * twice keeps the first.
 */
export async function acknowledgePermit(tx: Db, actor: Actor, p: PermitRow): Promise<PermitRow> {
  if (p.acknowledgedAt) return p;
  const [updated] = await tx
    .update(permits)
    .set({ acknowledgedById: actor.userId, acknowledgedByName: actor.name, acknowledgedAt: new Date() })
    .where(eq(permits.id, p.id))
    .returning();
  await cancelPending(tx, p.id, "Acknowledged", ["reminder", "escalation"]);
  await recordPermitAudit(tx, actor, p, [
    { action: "acknowledge", field: "acknowledged", newValue: `Term ${p.termNo}` },
  ]);
  return updated!;
}

/** 'Close Permit': the close date and the final status; no reminders after it. */
/** Issue 29: a permit with open condition tasks closes only when the user said so (the dialog asks). */
const openTasksRefusal = (n: number) =>
  new AppError(
    409,
    "OPEN_TASKS",
    `This permit has ${n} open task${n === 1 ? "" : "s"}. Closing it marks them Not Applicable.`,
  );

export async function closePermit(tx: Db, actor: Actor, p: PermitRow, input: CloseInput): Promise<PermitRow> {
  // The permit is locked (lockedWrite): no task is added or completed meanwhile.
  const openTasks = await countOpenTasks(tx, p.id);
  if (openTasks > 0 && input.closeOpenTasks !== true) throw openTasksRefusal(openTasks);
  const [updated] = await tx
    .update(permits)
    .set({ closeDate: input.close_date, finalStatus: input.final_status, updatedAt: new Date() })
    .where(eq(permits.id, p.id))
    .returning();
  await tx
    .update(permitTerms)
    .set({ endedOn: input.close_date })
    .where(
      and(eq(permitTerms.permitId, p.id), eq(permitTerms.termNo, p.termNo), isNull(permitTerms.endedOn)),
    );
  await cancelPending(tx, p.id, "Permit closed");
  await recordPermitAudit(tx, actor, p, [
    { action: "close", field: "close_date", oldValue: p.closeDate, newValue: input.close_date },
    { action: "close", field: "final_status", newValue: input.final_status },
  ]);
  // Each task Not Applicable with the reason, an audit entry per task, in the close's transaction.
  if (openTasks > 0) await closeOpenTasks(tx, p, PERMIT_CLOSED_REASON, actor);
  await emitLifecycleEvent(tx, "permit.closed", updated!);
  return updated!;
}
