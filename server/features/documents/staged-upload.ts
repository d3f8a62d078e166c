import type { FastifyInstance, FastifyRequest } from "fastify";
import { COMPANY_MISSING, targetCompanyId, type Actor } from "../../access/actor.ts";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client.ts";
import { validation } from "../../errors.ts";
import { ATTACHMENT_FILENAME_MAX } from "../../../shared/schemas/attachments.ts";
import { hasUnstorableText, UNSTORABLE_TEXT_MESSAGE } from "../../../shared/domain/text.ts";
import { enqueueReading, isReadable } from "./readings.queue.ts";
import { findVisibleReading, type ReadingRow } from "./readings.repository.ts";

// POST /api/document-readings: the new-permit form's file, read before the permit exists. Stored
// through the storage interface with the attachments' limit (UPLOAD_MAX_BYTES, refused past it while
// streaming) under the company's attachments prefix, read once, then removed (the form uploads the
// file again as the permit's attachment when it is saved; same hash, so it is not read twice).

export const UNREADABLE_TYPE = "Only PDF, PNG, JPEG and TIFF files can be read.";
const FILE_REQUIRED = "Choose a file to upload.";

// Controls and the invisible characters that could disguise an extension (as attachments' file-names.ts).
const UNSAFE_CHARS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** The file's name as shown: its last path segment, without controls, at most the attachments' length. */
export function stagedFilename(raw: string | undefined): string {
  const name = ((raw ?? "").split(/[\\/]/).pop() ?? "").normalize("NFC").replace(UNSAFE_CHARS, "").trim();
  if (/^\.*$/.test(name)) return "file";
  return [...name].slice(-ATTACHMENT_FILENAME_MAX).join("");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const fieldValue = (field: unknown): string | undefined =>
  field && typeof field === "object" && "value" in field && typeof field.value === "string"
    ? field.value
    : undefined;

/** Stores the request's one file (field "file"; a super-admin's `company_id` field before it) and enqueues its reading. */
export async function receiveStagedFile(
  app: FastifyInstance,
  request: FastifyRequest,
  actor: Actor,
): Promise<ReadingRow> {
  const { db, storage, config } = app.ctx;
  if (!request.isMultipart()) throw validation({ file: FILE_REQUIRED });
  const part = await request.file();
  if (!part) throw validation({ file: FILE_REQUIRED });
  const refuse = (message: string) => {
    part.file.resume();
    return validation({ file: message }, message);
  };
  if (part.fieldname !== "file") throw refuse('Send the file in a field named "file".');
  if (part.filename && hasUnstorableText(part.filename))
    throw refuse(`The file name is not valid. ${UNSTORABLE_TEXT_MESSAGE}`);
  const contentType = (part.mimetype ?? "").split(";")[0]!.trim().toLowerCase();
  if (!isReadable(contentType)) throw refuse(UNREADABLE_TYPE);
  const named = fieldValue(part.fields.company_id) ?? (request.query as { company_id?: string }).company_id;
  if (!named && !actor.companyId) {
    part.file.resume();
    throw validation({ company_id: COMPANY_MISSING }, COMPANY_MISSING);
  }
  const companyId = targetCompanyId(actor, named);
  if (!UUID.test(companyId)) {
    part.file.resume();
    throw validation({ company_id: "Company not found." }, "Company not found.");
  }
  const stored = await storage.put(`companies/${companyId}/attachments`, part.file, config.UPLOAD_MAX_BYTES);
  let readingId: string;
  try {
    if (stored.size === 0) throw validation({ file: "The file is empty." });
    readingId = await db.transaction(async (tx) => {
      // A super-admin names any company: it must exist (400 on the field, as the other forms answer).
      const [company] = await queryRows<{ id: string }>(
        tx,
        sql`select id from companies where id = ${companyId}`,
      );
      if (!company) throw validation({ company_id: "Company not found." }, "Company not found.");
      const id = await enqueueReading(tx, {
        companyId,
        sha256: stored.sha256,
        sourceKey: stored.key,
        filename: stagedFilename(part.filename),
        contentType,
        staged: true,
      });
      if (id) return id;
      // Read before (the same file, in this company): that reading answers; this copy is not needed.
      const [existing] = await queryRows<{ id: string }>(
        tx,
        sql`select id from document_readings where company_id = ${companyId} and sha256 = ${stored.sha256}`,
      );
      throw new AlreadyRead(existing!.id);
    });
  } catch (err) {
    await storage.remove(stored.key).catch(() => undefined);
    if (!(err instanceof AlreadyRead)) throw err;
    readingId = err.readingId;
  }
  return findVisibleReading(db, actor, readingId);
}

class AlreadyRead extends Error {
  constructor(readonly readingId: string) {
    super("already read");
  }
}
