import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { bondLedgerEntries } from "../../db/schema.ts";
import type { LedgerEntryLike } from "../../../shared/domain/bonds.ts";

/** A ledger entry as the ledger's rules and the writes on a bond read it: with its effective date. */
export type DatedEntry = LedgerEntryLike & { effectiveDate: string };

/** The bond's entries in ledger order, as the arithmetic needs them (with their dates). */
export async function ledgerOf(tx: Db, bondId: string): Promise<DatedEntry[]> {
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
    .orderBy(asc(bondLedgerEntries.seq)) as Promise<DatedEntry[]>;
}
