// The permits feature's public face: what other features may use (the Bonds page, issue 12), and
// the permit the detail page (web/app/permit-detail) shows.
export { usePermitFilterOptions } from "./api/get-filter-options.ts";
export { URGENCY_LABELS, urgencyRowsSx } from "./components/permit-row-parts.tsx";
export { usePermit } from "./api/get-permit.ts";
export { useScopeContents } from "./api/get-scope-contents.ts";
