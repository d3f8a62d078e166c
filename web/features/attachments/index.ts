// The attachments feature's public face: the permit's Attachments card, and the uploads of the
// forms that attach a file (the permit form; a renewal's file, a bond ledger entry's document).
export { AttachmentsCard } from "./components/attachments-card.tsx";
export { usePermitDocumentUpload, useUploadPermitFile } from "./api/upload-attachment.ts";
