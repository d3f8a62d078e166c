/** The audit feature's public face: the read-only permit audit trail (writing is platform: server/audit/). */
export { auditRoutes } from "./audit.routes.ts";
