/** The permit lifecycle's public face: its routes, and acknowledging a permit's term (the reminders' link does it too). */
export { lifecycleRoutes } from "./lifecycle.routes.ts";
export { acknowledgePermit } from "./lifecycle.service.ts";
/** 'Save Renewal' in the caller's transaction (an approved document request renews through it too, issue 27). */
export { renewPermit } from "./lifecycle.service.ts";
/** 'Save Inspection' in the caller's transaction (issue 28: an inspection accepted from a document). */
export { recordInspection } from "./lifecycle.service.ts";
