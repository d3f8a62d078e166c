/** The attachments feature's public face: its routes. */
export { attachmentsRoutes } from "./attachments.routes.ts";
