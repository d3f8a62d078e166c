import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Actor } from "../../access/actor.ts";
import { validation } from "../../errors.ts";
import type { Attachment } from "../../../shared/schemas/attachments.ts";
import { hasUnstorableText, UNSTORABLE_TEXT_MESSAGE } from "../../../shared/domain/text.ts";
import { uploadAttachment, type AttachmentKind } from "./attachments.service.ts";

const UNSTORABLE_FILE_NAME = `The file name is not valid. ${UNSTORABLE_TEXT_MESSAGE}`;
export const FILE_REQUIRED = "Choose a file to upload.";

/**
 * One uploaded file from a multipart request (one field named "file"), stored and recorded as an
 * attachment of the permit: a permit's own file (archiving the current ones) or a bond ledger
 * entry's document. The caller has loaded the permit scoped and authorized the upload.
 */
export async function receiveUpload(
  app: FastifyInstance,
  request: FastifyRequest,
  actor: Actor,
  permit: { id: string; companyId: string },
  kind: AttachmentKind,
): Promise<Attachment> {
  const { db, storage, config } = app.ctx;
  if (!request.isMultipart()) throw validation({ file: FILE_REQUIRED });
  const part = await request.file();
  if (!part) throw validation({ file: FILE_REQUIRED });
  if (part.fieldname !== "file") {
    part.file.resume();
    throw validation({ file: 'Send the file in a field named "file".' });
  }
  if (part.filename && hasUnstorableText(part.filename)) {
    part.file.resume();
    throw validation({ file: UNSTORABLE_FILE_NAME }, UNSTORABLE_FILE_NAME);
  }
  return uploadAttachment(db, storage, actor, permit, {
    stream: part.file,
    filename: part.filename,
    mimetype: part.mimetype,
    maxBytes: config.UPLOAD_MAX_BYTES,
    kind,
  });
}
