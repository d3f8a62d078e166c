/**
 * The bond ledger's writer (issue 12): the one place that appends ledger entries and keeps the
 * bond's current amount and status in step, in the caller's transaction. The permit form (the
 * original amount), imports and the bonds feature's ledger routes all write through it.
 */
export { appendLedgerEntries, type NewLedgerEntry } from "./ledger-writer.ts";
