// The audit feature's public face: the permit's Audit Trail, as the detail page's card and as the
// permit form's list.
export { AuditTrailCard } from "./components/audit-trail-card.tsx";
export { AuditTrailList } from "./components/audit-trail-list.tsx";
