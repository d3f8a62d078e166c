import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { recordPermitAudit } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import { bondCollateral, permits } from "../../db/schema.ts";
import { conflict } from "../../errors.ts";
import type { LedgerKind } from "../../../shared/domain/bonds.ts";
import type { LedgerEntryInput } from "../../../shared/schemas/bond-ledger.ts";
import type { PermitRow } from "../permits/index.ts";
import type { DatedEntry } from "./ledger-entries.ts";

// Release and Cancellation close the bond (its close date is the entry's effective date, so its
// reminders stop); reversing one reopens it.

/** How a release or a cancellation closes the bond for reminders (lifecycle's close date). */
const CLOSING_FINAL_STATUS: Partial<Record<LedgerKind, string>> = {
  release: "Completed",
  cancellation: "Cancelled",
};

export const REVERSAL_AFTER_COLLATERAL =
  "Collateral of this bond was released after its release; a release cannot be reversed once its collateral is back.";

/** A release or cancellation is not reversed once some of the bond's collateral has been released (409). */
export async function assertReopenable(tx: Db, bond: PermitRow, reversed: DatedEntry | null) {
  if (!reversed || !CLOSING_FINAL_STATUS[reversed.kind]) return;
  const [released] = await tx
    .select({ id: bondCollateral.id })
    .from(bondCollateral)
    .where(and(eq(bondCollateral.permitId, bond.id), sql`${bondCollateral.releasedOn} is not null`))
    .limit(1);
  if (released) throw conflict(REVERSAL_AFTER_COLLATERAL);
}

/**
 * A Release or Cancellation closes the bond (unless already closed); its reversal reopens it.
 * Returns the bond's fields it changed.
 */
export async function syncClosing(
  tx: Db,
  actor: Actor,
  bond: PermitRow,
  input: LedgerEntryInput,
  reversed: DatedEntry | null,
): Promise<Pick<PermitRow, "closeDate" | "finalStatus"> | Record<string, never>> {
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
    return { closeDate: input.effective_date, finalStatus };
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
    return { closeDate: null, finalStatus: null };
  }
  return {};
}
