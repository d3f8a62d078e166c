// The lifecycle feature's public face: the permit's Renewal, Terms and Inspections cards (issue
// 11) with their steps (Renew, Extend, Record Inspection, Acknowledge, Close Permit), and the
// lifecycle they show.
export { usePermitLifecycle } from "./api/get-lifecycle.ts";
export { LifecyclePending, RenewalCard } from "./components/renewal-card.tsx";
export { TermsCard } from "./components/terms-card.tsx";
export { InspectionsCard } from "./components/inspections-card.tsx";
// The All Permits list's Renew By and Responsible cells, and the acknowledgement's words.
export {
  acknowledgedLabel,
  AcknowledgedLine,
  lifecyclePartsSx,
  RenewByText,
  ResponsibleText,
} from "./components/lifecycle-cells.tsx";
