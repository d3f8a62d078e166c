import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import {
  bondLedgerCan,
  canManageCollateral,
  canViewCollateral,
  canWriteLedger,
} from "../../access/policies/bond.ts";
import { recordPermitAudit } from "../../audit/audit-writer.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { attachments, bondCollateral, bondLedgerEntries, companies, permits } from "../../db/schema.ts";
import { AppError, conflict, notFound, validation } from "../../errors.ts";
import {
  addMonths,
  closingEntry,
  COLLATERAL_FORM_LABELS,
  COLLATERAL_MESSAGES,
  collateralReleaseError,
  isClosedBondStatus,
  isReversible,
  ledgerStatus,
  nextLedgerState,
  sumMoney,
  type BondStatus,
  type CollateralForm,
  type LedgerEntryLike,
  type LedgerKind,
  type LedgerStep,
} from "../../../shared/domain/bonds.ts";
import { todayIn } from "../../../shared/domain/dates.ts";
import type {
  BondLedger,
  Collateral,
  CollateralInput,
  CollateralReleaseInput,
  LedgerEntry,
  LedgerEntryInput,
  LinkedBond,
  MaintenanceBondInput,
} from "../../../shared/schemas/bonds.ts";
import type { GuaranteeType } from "../../../shared/domain/statuses.ts";
import { appendLedgerEntries } from "../bond-ledger/index.ts";
import { createPermitIn, type PermitRow } from "../permits/index.ts";
import { findVisibleBond, scopeSql } from "./bond-access.ts";

// ---------------------------------------------------------------------------------------------
// Reading: GET /api/bonds/:id/ledger

interface EntryRow {
  id: string;
  seq: number;
  kind: LedgerKind;
  effective_date: string;
  obligee_acceptance_date: string | null;
  percent: string | null;
  change: string;
  amount_after: string;
  reason: string | null;
  document: { id: string; name: string } | null;
  by: string;
  created_at: string;
  reverses_id: string | null;
  reversed_by_id: string | null;
}

interface CollateralRow {
  id: string;
  form: CollateralForm;
  amount: string;
  held_since: string;
  released_on: string | null;
  note: string | null;
  by: string;
  created_at: string;
}

interface LedgerRead {
  entries: EntryRow[] | null;
  collateral: CollateralRow[] | null;
  currency: string;
  surety: { id: string; name: string } | null;
  maintenance_bond: LinkedBond | null;
  performance_bond: LinkedBond | null;
  /** Whether a maintenance bond follows this one, seen by the actor or not. */
  has_maintenance: boolean;
}

const linkedBond = (alias: string) =>
  sql.raw(`json_build_object('id', ${alias}.id, 'permit_number', ${alias}.permit_number,
    'permit_name', ${alias}.permit_name, 'bond_number', ${alias}.bond_number, 'status', ${alias}.bond_status,
    'current_amount', ${alias}.current_amount::text)`);

/**
 * A bond's ledger in one statement: the entries in order (with their document, who wrote them and
 * the reversal of each), the collateral, the company's currency, the surety and the linked bonds
 * (those the actor may see). Collateral is not even read for a client-user.
 */
export async function loadLedger(db: Db, actor: Actor, bond: PermitRow): Promise<BondLedger> {
  const withCollateral = canViewCollateral(actor);
  const [row] = await queryRows<LedgerRead>(
    db,
    sql`select
          (select json_agg(json_build_object(
              'id', e.id, 'seq', e.seq, 'kind', e.kind, 'effective_date', e.effective_date,
              'obligee_acceptance_date', e.obligee_acceptance_date, 'percent', e.percent::text,
              'change', e.change::text, 'amount_after', e.amount_after::text, 'reason', e.reason,
              'document', case when a.id is null then null else json_build_object('id', a.id, 'name', a.filename) end,
              'by', e.created_by_name, 'created_at', e.created_at, 'reverses_id', e.reverses_id,
              'reversed_by_id', r.id) order by e.seq)
           from bond_ledger_entries e
           left join attachments a on a.id = e.document_id
           left join bond_ledger_entries r on r.reverses_id = e.id
           where e.permit_id = ${bond.id}) as entries,
          ${
            withCollateral
              ? sql`(select json_agg(json_build_object(
                  'id', c.id, 'form', c.form, 'amount', c.amount::text, 'held_since', c.held_since,
                  'released_on', c.released_on, 'note', c.note, 'by', c.created_by_name,
                  'created_at', c.created_at) order by c.held_since, c.created_at)
                 from bond_collateral c where c.permit_id = ${bond.id})`
              : sql`null`
          } as collateral,
          (select c.currency from companies c where c.id = ${bond.companyId}) as currency,
          (select json_build_object('id', s.id, 'name', s.name) from sureties s where s.id = ${bond.suretyId}) as surety,
          (select ${linkedBond("m")} from permits m
            where m.maintenance_of_id = ${bond.id} and ${scopeSql(actor, "m")}) as maintenance_bond,
          (select ${linkedBond("f")} from permits f
            where f.id = ${bond.maintenanceOfId} and ${scopeSql(actor, "f")}) as performance_bond,
          exists (select 1 from permits m where m.maintenance_of_id = ${bond.id}) as has_maintenance`,
  );
  return presentLedger(actor, bond, row!);
}

const iso = (v: string) => new Date(v).toISOString();
const likeOf = (e: EntryRow): LedgerEntryLike => ({
  id: e.id,
  kind: e.kind,
  change: e.change,
  reverses_id: e.reverses_id,
});

function presentLedger(actor: Actor, bond: PermitRow, r: LedgerRead): BondLedger {
  const rows = r.entries ?? [];
  const like = rows.map(likeOf);
  const status = (bond.bondStatus as BondStatus | null) ?? null;
  const write = canWriteLedger(actor, bond);
  const manage = canManageCollateral(actor, bond);
  const entries: LedgerEntry[] = rows.map((e) => ({
    id: e.id,
    seq: Number(e.seq),
    kind: e.kind,
    effective_date: e.effective_date,
    obligee_acceptance_date: e.obligee_acceptance_date,
    percent: e.percent,
    change: e.change,
    amount_after: e.amount_after,
    reason: e.reason,
    document: e.document,
    by: { name: e.by },
    created_at: iso(e.created_at),
    reverses_id: e.reverses_id,
    reversed_by_id: e.reversed_by_id,
    can_reverse: write && isReversible(like, likeOf(e)),
  }));
  const collateral: Collateral[] | null = !canViewCollateral(actor)
    ? null
    : (r.collateral ?? []).map((c) => ({
        id: c.id,
        form: c.form,
        amount: c.amount,
        held_since: c.held_since,
        released_on: c.released_on,
        note: c.note,
        by: { name: c.by },
        created_at: iso(c.created_at),
        can_release: manage && !c.released_on && isClosedBondStatus(status),
      }));
  return {
    id: bond.id,
    guarantee_type: (bond.guaranteeType as GuaranteeType | null) ?? null,
    bond_number: bond.bondNumber,
    surety: r.surety,
    status,
    original_amount: bond.bondAmount,
    current_amount: bond.currentAmount,
    currency: r.currency,
    entries,
    collateral,
    collateral_held: collateral
      ? sumMoney(collateral.filter((c) => !c.released_on).map((c) => c.amount))
      : null,
    maintenance_bond: r.maintenance_bond,
    performance_bond: r.performance_bond,
    can: bondLedgerCan(actor, bond, {
      status,
      guaranteeType: bond.guaranteeType,
      entries: like,
      hasMaintenanceBond: r.has_maintenance,
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Writing: POST /api/bonds/:id/ledger

async function companyToday(tx: Db, companyId: string): Promise<string> {
  const [c] = await tx
    .select({ zone: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, companyId));
  return todayIn(c?.zone ?? "UTC");
}

/** The bond's entries in ledger order, as the arithmetic needs them (with their dates). */
async function ledgerOf(tx: Db, bondId: string) {
  return tx
    .select({
      id: bondLedgerEntries.id,
      kind: bondLedgerEntries.kind,
      change: bondLedgerEntries.change,
      reverses_id: bondLedgerEntries.reversesId,
      effectiveDate: bondLedgerEntries.effectiveDate,
    })
    .from(bondLedgerEntries)
    .where(eq(bondLedgerEntries.permitId, bondId))
    .orderBy(asc(bondLedgerEntries.seq)) as Promise<(LedgerEntryLike & { effectiveDate: string })[]>;
}

/** A document must be a file attached to this bond. */
async function assertDocument(tx: Db, bondId: string, documentId: string | null | undefined) {
  if (!documentId) return;
  const [doc] = await tx
    .select({ id: attachments.id })
    .from(attachments)
    .where(and(eq(attachments.id, documentId), eq(attachments.permitId, bondId)));
  if (!doc) {
    const message = "Choose a file attached to this bond";
    throw validation({ document_id: message }, message);
  }
}

const stepOf = (input: LedgerEntryInput): LedgerStep => {
  switch (input.kind) {
    case "rider":
      return { kind: "rider", change: input.change };
    case "reduction":
      return { kind: "reduction", amount: input.amount, percent: input.percent };
    case "reversal":
      return { kind: "reversal", reverses_id: input.reverses_id };
    default:
      return { kind: input.kind };
  }
};

/** How a release or a cancellation closes the bond for reminders (lifecycle's close date). */
const CLOSING_FINAL_STATUS: Partial<Record<LedgerKind, string>> = {
  release: "Completed",
  cancellation: "Cancelled",
};

/**
 * Adds one entry to a bond's ledger, in one transaction with the bond's row locked: the ledger's
 * rules (shared/domain/bonds.ts: nextLedgerState) decide the change, the amount and the status, or
 * refuse (400 on a field, 409 for the bond's state); the writer appends the entry, keeps the bond's
 * current amount and status in step and audits it. A Release or Cancellation also closes the bond
 * (close date = its effective date), so its reminders stop; reversing it reopens the bond.
 */
export async function addLedgerEntry(db: Db, actor: Actor, bondId: string, input: LedgerEntryInput) {
  return db.transaction(async (tx) => {
    const bond = await findVisibleBond(tx, actor, bondId, { forUpdate: true });
    const entries = await ledgerOf(tx, bond.id);
    if ("document_id" in input) await assertDocument(tx, bond.id, input.document_id);
    const original = entries.find((e) => e.kind === "original");
    if (original && input.effective_date < original.effectiveDate) {
      const message = `Effective Date cannot be before the bond's original amount (${original.effectiveDate})`;
      throw validation({ effective_date: message }, message);
    }
    const step = stepOf(input);
    const outcome = nextLedgerState(entries, step);
    if (!outcome.ok) {
      if (outcome.conflict) throw conflict(outcome.message);
      throw validation({ [outcome.field ?? "kind"]: outcome.message }, outcome.message);
    }
    const target = input.kind === "reversal" ? entries.find((e) => e.id === input.reverses_id)! : null;
    if (target && CLOSING_FINAL_STATUS[target.kind]) {
      const [released] = await tx
        .select({ id: bondCollateral.id })
        .from(bondCollateral)
        .where(and(eq(bondCollateral.permitId, bond.id), sql`${bondCollateral.releasedOn} is not null`))
        .limit(1);
      if (released) throw conflict(REVERSAL_AFTER_COLLATERAL);
    }
    try {
      await appendLedgerEntries(tx, actor, [
        {
          permit: bond,
          kind: input.kind,
          change: outcome.change,
          amountAfter: outcome.amount_after,
          status: outcome.status,
          statusBefore: ledgerStatus(entries) ?? (bond.bondStatus as BondStatus | null),
          effectiveDate: input.effective_date,
          obligeeAcceptanceDate: input.kind === "reduction" ? input.obligee_acceptance_date : null,
          percent: input.kind === "reduction" ? input.percent : null,
          reason: input.reason,
          documentId: "document_id" in input ? input.document_id : null,
          reversesId: input.kind === "reversal" ? input.reverses_id : null,
        },
      ]);
    } catch (err) {
      // Two reversals of one entry at once: the unique index lets one through.
      if (uniqueViolation(err) === "bond_ledger_entries_reverses_uq")
        throw conflict("This entry was already reversed.");
      throw err;
    }
    await syncClosing(tx, actor, bond, input, target);
  });
}

export const REVERSAL_AFTER_COLLATERAL =
  "Collateral of this bond was released after its release; a release cannot be reversed once its collateral is back.";

/** A Release or Cancellation closes the bond (unless already closed); its reversal reopens it. */
async function syncClosing(
  tx: Db,
  actor: Actor,
  bond: PermitRow,
  input: LedgerEntryInput,
  reversed: (LedgerEntryLike & { effectiveDate: string }) | null,
) {
  const finalStatus = CLOSING_FINAL_STATUS[input.kind];
  if (finalStatus && !bond.closeDate) {
    await tx
      .update(permits)
      .set({ closeDate: input.effective_date, finalStatus })
      .where(eq(permits.id, bond.id));
    await recordPermitAudit(tx, actor, bond, [
      { action: "close", field: "close_date", oldValue: null, newValue: input.effective_date },
      { action: "close", field: "final_status", newValue: finalStatus },
    ]);
  }
  if (
    reversed &&
    CLOSING_FINAL_STATUS[reversed.kind] &&
    bond.closeDate === reversed.effectiveDate &&
    bond.finalStatus === CLOSING_FINAL_STATUS[reversed.kind]
  ) {
    await tx.update(permits).set({ closeDate: null, finalStatus: null }).where(eq(permits.id, bond.id));
    await recordPermitAudit(tx, actor, bond, [
      { action: "reopen", field: "close_date", oldValue: bond.closeDate, newValue: null },
      { action: "reopen", field: "final_status", oldValue: bond.finalStatus, newValue: null },
    ]);
  }
}

// ---------------------------------------------------------------------------------------------
// Collateral

const collateralText = (form: CollateralForm, amount: string, heldSince: string) =>
  `${COLLATERAL_FORM_LABELS[form]} ${amount} held since ${heldSince}`;

/** 'Add Collateral': on a bond that is not released or cancelled. */
export async function addCollateral(db: Db, actor: Actor, bondId: string, input: CollateralInput) {
  return db.transaction(async (tx) => {
    const bond = await findVisibleBond(tx, actor, bondId, { forUpdate: true });
    if (isClosedBondStatus(bond.bondStatus as BondStatus | null))
      throw conflict(COLLATERAL_MESSAGES.bondClosed);
    await tx.insert(bondCollateral).values({
      companyId: bond.companyId,
      permitId: bond.id,
      form: input.form,
      amount: input.amount,
      heldSince: input.held_since,
      note: input.note,
      createdBy: actor.userId,
      createdByName: actor.name,
    });
    await recordPermitAudit(tx, actor, bond, [
      {
        action: "collateral",
        field: "collateral",
        newValue: collateralText(input.form, input.amount, input.held_since),
      },
    ]);
  });
}

/**
 * 'Release Collateral': with or after the bond (decision 0014). The bond must be released or
 * cancelled, and the date on or after that entry's effective date and the collateral's Held Since.
 */
export async function releaseCollateral(
  db: Db,
  actor: Actor,
  bondId: string,
  collateralId: string,
  input: CollateralReleaseInput,
) {
  return db.transaction(async (tx) => {
    const bond = await findVisibleBond(tx, actor, bondId, { forUpdate: true });
    const [item] = await tx
      .select()
      .from(bondCollateral)
      .where(and(eq(bondCollateral.id, collateralId), eq(bondCollateral.permitId, bond.id)));
    if (!item) throw notFound("Collateral");
    const entries = await ledgerOf(tx, bond.id);
    const closing = closingEntry(entries);
    const refused = collateralReleaseError(
      { status: bond.bondStatus as BondStatus | null, closed_on: closing?.effectiveDate ?? null },
      { held_since: item.heldSince, released_on: item.releasedOn },
      input.released_on,
    );
    if (refused?.conflict) throw conflict(refused.message);
    if (refused) throw validation({ released_on: refused.message }, refused.message);
    await tx
      .update(bondCollateral)
      .set({ releasedOn: input.released_on })
      .where(and(eq(bondCollateral.id, item.id), isNull(bondCollateral.releasedOn)));
    await recordPermitAudit(tx, actor, bond, [
      {
        action: "collateral",
        field: "collateral_released",
        oldValue: collateralText(item.form as CollateralForm, item.amount, item.heldSince),
        newValue: input.released_on,
      },
    ]);
  });
}

// ---------------------------------------------------------------------------------------------
// 'Start Maintenance Bond'

export const MAINTENANCE_MESSAGES = {
  notPerformance: "Only a Performance bond starts a maintenance bond.",
  cancelled: "This performance bond is cancelled.",
  exists: "This performance bond already has its maintenance bond.",
} as const;

/**
 * Creates the Maintenance bond that follows a Performance bond, linked both ways, with its own
 * original ledger entry (through the permit service, in this transaction). The surety, project,
 * agency, responsible person and lead time default to the performance bond's; the expiration is
 * the start date plus the term.
 */
export async function startMaintenanceBond(
  db: Db,
  actor: Actor,
  performanceId: string,
  input: MaintenanceBondInput,
): Promise<string> {
  try {
    return await db.transaction(async (tx) => {
      const perf = await findVisibleBond(tx, actor, performanceId, { forUpdate: true });
      if (perf.guaranteeType !== "Performance") throw conflict(MAINTENANCE_MESSAGES.notPerformance);
      if (perf.bondStatus === "cancelled") throw conflict(MAINTENANCE_MESSAGES.cancelled);
      const [existing] = await tx
        .select({ id: permits.id })
        .from(permits)
        .where(eq(permits.maintenanceOfId, perf.id));
      if (existing) throw conflict(MAINTENANCE_MESSAGES.exists);
      const start = input.start_date ?? (await companyToday(tx, perf.companyId));
      const base = {
        permit_number: input.permit_number ?? input.bond_number ?? `${perf.permitNumber} M`,
        permit_name: input.permit_name ?? `${perf.permitName} (Maintenance)`,
        record_type: "bond" as const,
        agency: input.agency ?? perf.agency ?? "",
        is_required: true,
        archived: false,
        project_id: perf.projectId,
        company_id: perf.companyId,
        permit_application_date: null,
        issue_date: start,
        expiration_date: addMonths(start, input.term_months),
        start_date: start,
        close_date: null,
        phase: perf.phase,
        aka: null,
        grantor_link: null,
        bond_amount: input.amount,
        surety_id: input.surety_id ?? perf.suretyId,
        surety_company: input.surety_id ? null : perf.suretyCompany,
        bond_number: input.bond_number,
        guarantee_type: "Maintenance" as const,
        responsible_user_id: perf.responsibleUserId,
        expiry_rule: "fixed" as const,
        expiry_days: null,
        renewal_lead_days: perf.renewalLeadDays,
      };
      let created: PermitRow;
      try {
        created = await createPermitIn(tx, actor, perf.companyId, base, { maintenanceOfId: perf.id });
      } catch (err) {
        // The performance bond's responsible person may since have left: the new bond goes without.
        if (!(err instanceof AppError && err.fields?.responsible_user_id)) throw err;
        created = await createPermitIn(
          tx,
          actor,
          perf.companyId,
          { ...base, responsible_user_id: null },
          { maintenanceOfId: perf.id },
        );
      }
      await recordPermitAudit(tx, actor, perf, [
        { action: "maintenance_bond", field: "maintenance_bond", newValue: created.permitNumber },
      ]);
      return created.id;
    });
  } catch (err) {
    if (uniqueViolation(err) === "permits_maintenance_of_uq") throw conflict(MAINTENANCE_MESSAGES.exists);
    throw err;
  }
}
