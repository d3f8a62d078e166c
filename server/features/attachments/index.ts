/**
 * The attachments feature's public face: its routes, and receiving an upload for another feature's
 * route (a bond ledger entry's document).
 */
export { attachmentsRoutes } from "./attachments.routes.ts";
export { receiveUpload } from "./receive-upload.ts";
