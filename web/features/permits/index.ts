// The permits feature's public face: what other features may use (the Bonds page, issue 12).
export { afterPermitChange, permitKeys } from "./api/keys.ts";
export { usePermitFilterOptions } from "./api/get-filter-options.ts";
export { BondStatusChip } from "./components/bond-status-chip.tsx";
export { URGENCY_LABELS, urgencyRowsSx } from "./components/permit-row-parts.tsx";
