/**
 * The permit lifecycle's public face: its routes, and the signed Acknowledge link the reminder
 * e-mails carry.
 */
export { lifecycleRoutes } from "./lifecycle.routes.ts";
export { signAcknowledgeToken, type AcknowledgeClaim } from "./acknowledge-token.ts";
