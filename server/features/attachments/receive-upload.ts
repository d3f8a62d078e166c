import type { MultipartFile } from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Actor } from "../../access/actor.ts";
import { validation } from "../../errors.ts";
import type { Attachment } from "../../../shared/schemas/attachments.ts";
import { hasUnstorableText, UNSTORABLE_TEXT_MESSAGE } from "../../../shared/domain/text.ts";
import { displayFilename, normaliseContentType } from "./file-names.ts";
import {
  storeUpload,
  uploadAttachment,
  type AttachmentKind,
  type StoredUpload,
} from "./attachments.service.ts";

const UNSTORABLE_FILE_NAME = `The file name is not valid. ${UNSTORABLE_TEXT_MESSAGE}`;
export const FILE_REQUIRED = "Choose a file to upload.";

/** The request's one file part (a field named "file"), its name checked; its bytes not read yet. */
async function filePart(request: FastifyRequest): Promise<MultipartFile> {
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
  return part;
}

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
  const part = await filePart(request);
  return uploadAttachment(db, storage, actor, permit, {
    stream: part.file,
    filename: part.filename,
    mimetype: part.mimetype,
    maxBytes: config.UPLOAD_MAX_BYTES,
    kind,
  });
}

/**
 * One uploaded file, with the same limits and checks as an attachment, stored in the company's
 * namespace and handed to `record` to write a row of the caller's own (an outside party's upload to
 * a document request, issue 27); a failure of `record` removes the stored file again. The caller
 * has decided who may upload.
 */
export async function receiveFile<T>(
  app: FastifyInstance,
  request: FastifyRequest,
  companyId: string,
  record: (stored: StoredUpload) => Promise<T>,
): Promise<T> {
  const { storage, config } = app.ctx;
  const part = await filePart(request);
  return storeUpload(
    storage,
    companyId,
    {
      stream: part.file,
      filename: part.filename,
      mimetype: part.mimetype,
      maxBytes: config.UPLOAD_MAX_BYTES,
    },
    record,
  );
}

/**
 * A multipart form of text fields and at most one file (field "file"), as a browser sends it:
 * the file, if one was chosen, stored under `prefix` with the same limits and checks as an
 * attachment (an empty file part, a file input left empty, counts as none); then `record` gets it
 * (or null) and the fields, and a failure of `record` removes the stored file again (issue 29: a
 * task's completion with its note and evidence). The caller has decided who may upload.
 */
export async function receiveForm<T>(
  app: FastifyInstance,
  request: FastifyRequest,
  companyId: string,
  prefix: string,
  record: (stored: StoredUpload | null, fields: Record<string, string>) => Promise<T>,
): Promise<T> {
  const { storage, config } = app.ctx;
  if (!request.isMultipart()) throw validation({ file: "Send the form as multipart/form-data." });
  const fields: Record<string, string> = {};
  let stored: StoredUpload | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === "field") {
        if (typeof part.value === "string") fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== "file" || stored) {
        part.file.resume();
        throw validation({ file: 'Send one file in a field named "file".' });
      }
      if (part.filename && hasUnstorableText(part.filename)) {
        part.file.resume();
        throw validation({ file: UNSTORABLE_FILE_NAME }, UNSTORABLE_FILE_NAME);
      }
      const digest = await storage.put(prefix, part.file, config.UPLOAD_MAX_BYTES);
      if (digest.size === 0) {
        await storage.remove(digest.key);
        continue;
      }
      stored = {
        ...digest,
        filename: displayFilename(part.filename),
        contentType: normaliseContentType(part.mimetype),
      };
    }
    return await record(stored, fields);
  } catch (err) {
    if (stored) await storage.remove(stored.key);
    throw err;
  }
}
