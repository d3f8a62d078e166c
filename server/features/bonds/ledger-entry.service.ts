import { and, eq } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { attachments } from "../../db/schema.ts";
import { conflict, validation } from "../../errors.ts";
import {
  ledgerStatus,
  nextLedgerState,
  type BondStatus,
  type LedgerStep,
} from "../../../shared/domain/bonds.ts";
import type { LedgerEntryInput } from "../../../shared/schemas/bond-ledger.ts";
import { formatDate } from "../../../shared/domain/format.ts";
import { appendLedgerEntries } from "../bond-ledger/index.ts";
import type { PermitRow } from "../permits/index.ts";
import { assertReopenable, syncClosing } from "./ledger-closing.ts";
import type { DatedEntry } from "./ledger-entries.ts";

// Writing: POST /api/bonds/:id/ledger (Rider, Reduction, Release, Cancellation, Claim, Reversal).

/** A document must be a ledger document of this bond (POST /api/bonds/:id/documents), not one of its files. */
async function assertDocument(tx: Db, bondId: string, documentId: string | null | undefined) {
  if (!documentId) return;
  const [doc] = await tx
    .select({ id: attachments.id })
    .from(attachments)
    .where(
      and(
        eq(attachments.id, documentId),
        eq(attachments.permitId, bondId),
        eq(attachments.kind, "ledger_document"),
      ),
    );
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

/**
 * Adds one entry to a bond's ledger, in the route's transaction with the bond's row locked and its
 * entries read with it (lockBondWithLedger), returning the bond as it is now: the ledger's
 * rules (shared/domain/bonds.ts: nextLedgerState) decide the change, the amount and the status, or
 * refuse (400 on a field, 409 for the bond's state); the writer appends the entry, keeps the bond's
 * current amount and status in step and audits it. A Release or Cancellation also closes the bond
 * (close date = its effective date), so its reminders stop; reversing it reopens the bond
 * (ledger-closing.ts).
 */
export async function addLedgerEntry(
  tx: Db,
  actor: Actor,
  locked: { bond: PermitRow; entries: DatedEntry[] },
  input: LedgerEntryInput,
): Promise<PermitRow> {
  const { bond, entries } = locked;
  if ("document_id" in input) await assertDocument(tx, bond.id, input.document_id);
  const original = entries.find((e) => e.kind === "original");
  if (original && input.effective_date < original.effectiveDate) {
    const message = `Effective Date cannot be before the bond's original amount (${formatDate(original.effectiveDate)})`;
    throw validation({ effective_date: message }, message);
  }
  const step = stepOf(input);
  const outcome = nextLedgerState(entries, step);
  if (!outcome.ok) {
    if (outcome.conflict) throw conflict(outcome.message);
    throw validation({ [outcome.field ?? "kind"]: outcome.message }, outcome.message);
  }
  const target = input.kind === "reversal" ? entries.find((e) => e.id === input.reverses_id)! : null;
  await assertReopenable(tx, bond, target);
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
  const closing = await syncClosing(tx, actor, bond, input, target);
  return { ...bond, currentAmount: outcome.amount_after, bondStatus: outcome.status, ...closing };
}
