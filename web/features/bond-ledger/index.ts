// The bond ledger's public face (issue 12): a bond's Bond Details, Bond Ledger and Collateral cards
// with their steps (riders, reductions, release, cancellation, claims, reversals, collateral, Start
// Maintenance Bond), the ledger they show, and the bond status chip (the Bonds page's rows too).
export { useBondLedger } from "./api/bond-ledger.ts";
export { BondDetailsCard } from "./components/bond-details-card.tsx";
export { BondLedgerCard, BondLedgerPending } from "./components/bond-ledger-card.tsx";
export { CollateralCard } from "./components/collateral-card.tsx";
export { BondStatusChip } from "./components/bond-status-chip.tsx";
