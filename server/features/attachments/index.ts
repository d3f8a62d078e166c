/**
 * The attachments feature's public face: its routes, and receiving an upload for another feature's
 * route (a bond ledger entry's document).
 */
export { attachmentsRoutes } from "./attachments.routes.ts";
export { receiveFile, receiveForm, receiveUpload } from "./receive-upload.ts";
/** Outside parties' files (issue 27): an already stored file put on a permit, in the caller's transaction. */
export { attachStoredFile, type StoredUpload } from "./attachments.service.ts";
/** How a stored file is sent as a download (the name quoted safely, never a type a browser would run). */
export { attachmentDisposition, downloadContentType } from "./file-names.ts";
