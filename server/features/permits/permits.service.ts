import { and, desc, eq, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Actor } from "../../access/actor.ts";
import { canDeletePermit, canEditPermit, canMovePermitToCompany } from "../../access/policies/permit.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { bondLedgerEntries, permitInspections, permits, permitTerms } from "../../db/schema.ts";
import { authorize, validation } from "../../errors.ts";
import { todayIn } from "../../../shared/domain/dates.ts";
import { storedExpiryDays } from "../../../shared/schemas/expiry-fields.ts";
import type { PermitStatus } from "../../../shared/domain/statuses.ts";
import type { PermitInput } from "../../../shared/schemas/permit-input.ts";
import { recordPermitAudit, type PermitAuditEntry } from "../../audit/audit-writer.ts";
import { appendLedgerEntries } from "../bond-ledger/index.ts";
import { syncPermitContacts } from "../contacts/index.ts";
import { resolveSurety } from "../sureties/index.ts";
import { findVisiblePermit, type PermitRow } from "./permit-access.ts";
import { assertResponsible, companyZone, resolveProject } from "./permit-form-checks.ts";
import { PERMIT_CLOSED_REASON } from "../../../shared/domain/conditions.ts";
import { closeOpenTasks } from "../task-closing/index.ts";
import { emitWebhookEvents } from "../webhooks/index.ts";

type PermitValues = Pick<
  typeof permits.$inferInsert,
  | "companyId"
  | "projectId"
  | "clientId"
  | "permitNumber"
  | "permitName"
  | "recordType"
  | "agency"
  | "status"
  | "archived"
  | "permitApplicationDate"
  | "issueDate"
  | "expirationDate"
  | "startDate"
  | "closeDate"
  | "finalStatus"
  | "phase"
  | "aka"
  | "grantorLink"
  | "bondAmount"
  | "suretyCompany"
  | "bondNumber"
  | "guaranteeType"
  | "responsibleUserId"
  | "expiryRule"
  | "expiryDays"
  | "renewalLeadDays"
>;

/** The columns the form writes, each audited under its column name when it changes. */
const AUDITED: Record<keyof PermitValues, PgColumn> = {
  companyId: permits.companyId,
  projectId: permits.projectId,
  clientId: permits.clientId,
  permitNumber: permits.permitNumber,
  permitName: permits.permitName,
  recordType: permits.recordType,
  agency: permits.agency,
  status: permits.status,
  archived: permits.archived,
  permitApplicationDate: permits.permitApplicationDate,
  issueDate: permits.issueDate,
  expirationDate: permits.expirationDate,
  startDate: permits.startDate,
  closeDate: permits.closeDate,
  finalStatus: permits.finalStatus,
  phase: permits.phase,
  aka: permits.aka,
  grantorLink: permits.grantorLink,
  bondAmount: permits.bondAmount,
  suretyCompany: permits.suretyCompany,
  bondNumber: permits.bondNumber,
  guaranteeType: permits.guaranteeType,
  responsibleUserId: permits.responsibleUserId,
  expiryRule: permits.expiryRule,
  expiryDays: permits.expiryDays,
  renewalLeadDays: permits.renewalLeadDays,
};

/** Bond columns the form does not write directly: the surety, and the ledger's status and amount. */
type BondValues = Pick<typeof permits.$inferInsert, "suretyId" | "bondStatus" | "currentAmount">;

export const BOND_AMOUNT_LOCKED =
  "Bond Amount is the original amount on this bond's ledger and cannot be changed; record a Rider on the Bond Ledger to change the amount.";
export const BOND_TYPE_LOCKED = "This bond has a ledger; it cannot become a permit.";
export const BOND_COMPANY_LOCKED = "A bond with a ledger stays in its company.";
export const BOND_CLOSE_LOCKED =
  "Close Date of a bond with a ledger follows the Bond Ledger and cannot be changed here; record a Release or a Cancellation on the Bond Ledger to close the bond, or reverse that entry to reopen it.";

export { RESPONSIBLE_NOT_STAFF } from "./permit-form-checks.ts";

/** "1500" and "1500.5" as the numeric(14,2) column gives them back ("1500.00", "1500.50"). */
function toMoney(amount: string | null): string | null {
  if (amount === null) return null;
  const [whole = "0", cents = ""] = amount.split(".");
  return `${BigInt(whole).toString()}.${cents.padEnd(2, "0")}`;
}

async function toValues(
  tx: Db,
  actor: Actor,
  companyId: string,
  input: PermitInput,
  currentStatus: string | null,
): Promise<PermitValues & { suretyId: string | null; zone: string }> {
  const zone = await companyZone(tx, companyId);
  const project = await resolveProject(tx, companyId, input.project_id);
  const isBond = input.record_type === "bond";
  // A bond's surety: one of the company's, chosen or typed (a new name creates it; issue 12).
  const surety = isBond ? await resolveSurety(tx, actor, companyId, input) : null;
  // Unticking Required keeps a status the form cannot show (Pending, N/A...) rather than overwrite it.
  const status: PermitStatus = input.is_required
    ? "Required"
    : currentStatus && currentStatus !== "Required"
      ? (currentStatus as PermitStatus)
      : "In Waiting";
  return {
    companyId,
    projectId: project?.id ?? null,
    clientId: project?.clientId ?? null,
    permitNumber: input.permit_number,
    permitName: input.permit_name,
    recordType: input.record_type,
    agency: input.agency,
    status,
    archived: input.archived,
    permitApplicationDate: input.permit_application_date,
    issueDate: input.issue_date,
    expirationDate: input.expiration_date,
    startDate: input.start_date ?? todayIn(zone),
    closeDate: input.close_date,
    finalStatus: input.close_date ? input.final_status : null,
    phase: input.phase,
    aka: input.aka,
    grantorLink: input.grantor_link,
    // A permit carries no bond details, also after switching from bond to permit.
    bondAmount: isBond ? toMoney(input.bond_amount) : null,
    suretyCompany: surety?.name ?? null,
    suretyId: surety?.id ?? null,
    zone,
    bondNumber: isBond ? input.bond_number : null,
    guaranteeType: isBond ? input.guarantee_type : null,
    responsibleUserId: input.responsible_user_id,
    expiryRule: input.expiry_rule,
    expiryDays: storedExpiryDays(input.expiry_rule, input.expiry_days),
    renewalLeadDays: input.renewal_lead_days,
  };
}

/** Creates a permit and its "create" audit entry in one transaction. */
export async function createPermit(
  db: Db,
  actor: Actor,
  companyId: string,
  input: PermitInput,
): Promise<PermitRow> {
  return db.transaction((tx) => createPermitIn(tx, actor, companyId, input));
}

/**
 * createPermit inside the caller's transaction ('Start Maintenance Bond' creates its bond with the
 * link to the performance bond). A bond starts Active; with an amount, that amount is its ledger's
 * original entry, effective on the issue date (else today in the company's time zone).
 */
export async function createPermitIn(
  tx: Db,
  actor: Actor,
  companyId: string,
  input: PermitInput,
  extra: { maintenanceOfId?: string | null } = {},
): Promise<PermitRow> {
  const { zone, ...values } = await toValues(tx, actor, companyId, input, null);
  if (values.responsibleUserId) await assertResponsible(tx, companyId, values.responsibleUserId);
  const isBond = values.recordType === "bond";
  const bond: BondValues = {
    bondStatus: isBond ? "active" : null,
    currentAmount: isBond ? (values.bondAmount ?? null) : null,
  };
  const [row] = await tx
    .insert(permits)
    .values({ ...values, ...bond, maintenanceOfId: extra.maintenanceOfId ?? null, createdBy: actor.userId })
    .returning();
  await recordPermitAudit(tx, actor, row!, [{ action: "create", newValue: row!.permitNumber }]);
  // Issue 30: before the ledger's original entry, so a receiver hears of the bond before its entry.
  await emitWebhookEvents(tx, companyId, "permit.created", [{ permitId: row!.id }]);
  await openLedger(tx, actor, row!, zone);
  // The contacts it lists (issue 27): each one of the company's, else the whole create rolls back.
  await syncPermitContacts(tx, actor, row!, input.contact_ids ?? [], { isNew: true });
  return row!;
}

/** A bond's original ledger entry, when it has an amount and no ledger yet. */
async function openLedger(tx: Db, actor: Actor, row: PermitRow, zone: string) {
  if (row.recordType !== "bond" || row.bondAmount === null) return;
  await appendLedgerEntries(tx, actor, [
    {
      permit: row,
      kind: "original",
      change: row.bondAmount,
      amountAfter: row.bondAmount,
      status: "active",
      statusBefore: null,
      effectiveDate: row.issueDate ?? todayIn(zone),
    },
  ]);
}

/**
 * What the form may change of a bond's ledger columns. Once a bond has ledger entries its Bond
 * Amount is the original amount of record: the form may not rewrite it (a Rider changes the
 * amount), nor turn the bond into a permit or move it to another company, nor change its Close
 * Date (a Release or Cancellation closes it, their reversal reopens it: decision 0014). Before
 * that, the amount is free and a first amount opens the ledger.
 */
async function bondUpdate(
  tx: Db,
  current: PermitRow,
  values: PermitValues & { suretyId: string | null },
): Promise<{ bond: BondValues & { maintenanceOfId?: null }; opens: boolean }> {
  const [ledger] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(bondLedgerEntries)
    .where(eq(bondLedgerEntries.permitId, current.id));
  const hasLedger = (ledger?.n ?? 0) > 0;
  if (hasLedger) {
    if (values.recordType !== "bond") throw validation({ record_type: BOND_TYPE_LOCKED }, BOND_TYPE_LOCKED);
    if (values.companyId !== current.companyId)
      throw validation({ company_id: BOND_COMPANY_LOCKED }, BOND_COMPANY_LOCKED);
    if ((values.bondAmount ?? null) !== current.bondAmount)
      throw validation({ bond_amount: BOND_AMOUNT_LOCKED }, BOND_AMOUNT_LOCKED);
    if ((values.closeDate ?? null) !== (current.closeDate ?? null))
      throw validation({ close_date: BOND_CLOSE_LOCKED }, BOND_CLOSE_LOCKED);
    return { bond: { suretyId: values.suretyId }, opens: false };
  }
  if (values.recordType !== "bond") {
    return {
      bond: { suretyId: null, bondStatus: null, currentAmount: null, maintenanceOfId: null },
      opens: false,
    };
  }
  return {
    bond: {
      suretyId: values.suretyId,
      bondStatus: current.bondStatus ?? "active",
      currentAmount: values.bondAmount ?? null,
    },
    opens: values.bondAmount !== null && values.bondAmount !== undefined,
  };
}

/**
 * Updates a permit from the form: one audit entry per changed column, with old and new values,
 * in the same transaction. Only a super-admin may move it to another company.
 */
export async function updatePermit(db: Db, actor: Actor, id: string, input: PermitInput): Promise<PermitRow> {
  return db.transaction(async (tx) => {
    const current = await findVisiblePermit(tx, actor, id, { forUpdate: true });
    // The route has authorized on the same row; re-checked on the locked one.
    authorize(canEditPermit(actor, current));
    const companyId = canMovePermitToCompany(actor, current)
      ? (input.company_id ?? current.companyId)
      : current.companyId;
    const { zone, ...values } = await toValues(tx, actor, companyId, input, current.status);
    const { bond, opens } = await bondUpdate(tx, current, values);
    // Checked when it changes (or the permit changes company): a person disabled since keeps the
    // permit saveable until someone picks another.
    if (
      values.responsibleUserId &&
      (values.responsibleUserId !== current.responsibleUserId || companyId !== current.companyId)
    ) {
      await assertResponsible(tx, companyId, values.responsibleUserId);
    }
    // Issue 27: the contacts it lists, audited on their own ("Contacts", by name).
    const companyChanged = companyId !== current.companyId;
    await syncPermitContacts(tx, actor, { id, companyId }, input.contact_ids ?? undefined, {
      companyChanged,
    });
    const changes: PermitAuditEntry[] = [];
    const changed: Partial<PermitValues> = {};
    for (const key of Object.keys(AUDITED) as (keyof PermitValues)[]) {
      const before = current[key] ?? null;
      const after = values[key] ?? null;
      if (before === after) continue;
      changes.push({ action: "update", field: AUDITED[key].name, oldValue: before, newValue: after });
      Object.assign(changed, { [key]: after });
    }
    // The surety's id and the ledger's columns follow without audit rows of their own: the
    // surety's name and the amount are audited above, the ledger audits its entries.
    const bondChanged = (Object.keys(bond) as (keyof typeof bond)[]).filter(
      (k) => (bond[k] ?? null) !== (current[k] ?? null),
    );
    if (!changes.length && !bondChanged.length) return current;
    for (const k of bondChanged) Object.assign(changed, { [k]: bond[k] ?? null });
    const [row] = await tx.update(permits).set(changed).where(eq(permits.id, id)).returning();
    await syncCurrentTerm(tx, row!, changed);
    await recordPermitAudit(tx, actor, row!, changes);
    // Issue 29: a Close Date set on the form closes the open condition tasks as 'Close Permit' does.
    if (!current.closeDate && row!.closeDate) await closeOpenTasks(tx, row!, PERMIT_CLOSED_REASON, actor);
    // Issue 30: the form's change (the column names audited, and the bond's), a Close Date set from empty a close.
    const fields = [...changes.map((c) => c.field!), ...bondChanged.map((k) => AUDITED_BOND[k])];
    await emitWebhookEvents(tx, row!.companyId, "permit.updated", [
      { permitId: id, extra: { changed: fields } },
    ]);
    if (!current.closeDate && row!.closeDate) {
      const extra = { final_status: row!.finalStatus };
      await emitWebhookEvents(tx, row!.companyId, "permit.closed", [{ permitId: id, extra }]);
    }
    if (opens) await openLedger(tx, actor, row!, zone);
    return opens ? (await findVisiblePermit(tx, actor, id))! : row!;
  });
}

/** The bond columns that follow the form, by column name (the webhook's `changed`). */
const AUDITED_BOND: Record<keyof BondValues | "maintenanceOfId", string> = {
  suretyId: permits.suretyId.name,
  bondStatus: permits.bondStatus.name,
  currentAmount: permits.currentAmount.name,
  maintenanceOfId: permits.maintenanceOfId.name,
};

/**
 * A correction on the form (permit number, issue date, expiration date) is a correction of the
 * current term, not a new one: the term's latest row (its start, or its latest extension) follows
 * it, so the Terms table shows what the permit says. A permit moved to another company takes its
 * terms and inspections along.
 */
async function syncCurrentTerm(tx: Db, row: PermitRow, changed: Partial<PermitValues>) {
  if ("companyId" in changed) {
    const moved = { companyId: row.companyId };
    await tx.update(permitTerms).set(moved).where(eq(permitTerms.permitId, row.id));
    await tx.update(permitInspections).set(moved).where(eq(permitInspections.permitId, row.id));
  }
  const set: Partial<typeof permitTerms.$inferInsert> = {};
  if ("permitNumber" in changed) set.permitNumber = row.permitNumber;
  if ("issueDate" in changed) set.issueDate = row.issueDate;
  if ("expirationDate" in changed) set.expirationDate = row.expirationDate;
  if (!Object.keys(set).length) return;
  const [latest] = await tx
    .select({ id: permitTerms.id })
    .from(permitTerms)
    .where(and(eq(permitTerms.permitId, row.id), eq(permitTerms.termNo, row.termNo)))
    .orderBy(desc(permitTerms.seq))
    .limit(1);
  if (latest) await tx.update(permitTerms).set(set).where(eq(permitTerms.id, latest.id));
}

/**
 * Deletes a permit (comments and attachments go by cascade) after writing its "delete" audit
 * entry, which outlives it. Returns the storage keys of its files, to remove after the commit.
 */
export async function deletePermit(db: Db, actor: Actor, id: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    const permit = await findVisiblePermit(tx, actor, id, { forUpdate: true });
    authorize(canDeletePermit(actor, permit));
    const files = await queryRows<{ key: string }>(
      tx,
      sql`select storage_key as key from attachments where permit_id = ${permit.id}
          union all
          -- an outside party's upload to one of its document requests, not (yet) an attachment (issue 27)
          select f.storage_key as key from request_files f join document_requests r on r.id = f.request_id
          where r.permit_id = ${permit.id} and f.attachment_id is null`,
    );
    await recordPermitAudit(tx, actor, permit, [{ action: "delete", oldValue: permit.permitNumber }]);
    await tx.delete(permits).where(eq(permits.id, permit.id));
    return files.map((f) => f.key);
  });
}
