import type { Readable } from "node:stream";
import { and, asc, desc, eq, isNull } from "drizzle-orm";
import { scopeConditions, scopeOf, type Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { attachments, permits, users } from "../../db/schema.ts";
import { notFound, validation } from "../../errors.ts";
import type { Storage } from "../../storage/storage.ts";
import type { Attachment } from "../../../shared/schemas/attachments.ts";
import { recordPermitAudit } from "../../audit/audit-writer.ts";
import { enqueueReading } from "../documents/index.ts";
import { displayFilename, normaliseContentType } from "./file-names.ts";

type AttachmentRow = typeof attachments.$inferSelect;
/** A permit's own file, or a bond ledger entry's document (schema.ts). */
export type AttachmentKind = "file" | "ledger_document";

const ATTACHMENT_FIELD = "attachment";

const present = (r: AttachmentRow, uploadedByName: string | null): Attachment => ({
  id: r.id,
  filename: r.filename,
  contentType: r.contentType,
  size: r.size,
  archived: r.archived,
  uploadedByName,
  createdAt: r.createdAt.toISOString(),
  downloadUrl: `/api/attachments/${r.id}/download`,
});

/** A permit's attachments, current ones first, each group newest first. */
export async function listAttachments(
  db: Db,
  permitId: string,
  opts: { includeArchived: boolean },
): Promise<Attachment[]> {
  const rows = await db
    .select({ attachment: attachments, uploadedByName: users.name })
    .from(attachments)
    .leftJoin(users, eq(users.id, attachments.uploadedBy))
    .where(
      and(
        eq(attachments.permitId, permitId),
        // A ledger entry's document is listed on its ledger row, not among the permit's files.
        eq(attachments.kind, "file"),
        opts.includeArchived ? undefined : eq(attachments.archived, false),
      ),
    )
    .orderBy(asc(attachments.archived), desc(attachments.createdAt), asc(attachments.id));
  return rows.map((r) => present(r.attachment, r.uploadedByName));
}

/** A file already stored (storage.put) with what its row needs: the name shown and its type. */
export interface StoredUpload {
  key: string;
  size: number;
  sha256: string;
  filename: string;
  contentType: string;
}

/**
 * Records a stored file as an attachment of the permit, in the caller's transaction, which holds the
 * permit's row locked: a permit's own file archives the permit's current files (spec section 4; a
 * ledger document archives nothing); the new row and the audit entries are written together.
 */
export async function attachStoredFile(
  tx: Db,
  actor: Actor,
  permit: { id: string; companyId: string },
  file: StoredUpload,
  kind: AttachmentKind = "file",
  opts: { keepCurrent?: boolean } = {},
): Promise<AttachmentRow> {
  // keepCurrent: a file that joins the current ones (the second file of one submission) archives nothing.
  const archived =
    kind === "file" && !opts.keepCurrent
      ? await tx
          .update(attachments)
          .set({ archived: true })
          .where(
            and(
              eq(attachments.permitId, permit.id),
              eq(attachments.kind, "file"),
              eq(attachments.archived, false),
            ),
          )
          .returning({ filename: attachments.filename })
      : [];
  const [inserted] = await tx
    .insert(attachments)
    .values({
      permitId: permit.id,
      companyId: permit.companyId,
      filename: file.filename,
      storageKey: file.key,
      contentType: file.contentType,
      size: file.size,
      sha256: file.sha256,
      kind,
      uploadedBy: actor.userId,
    })
    .returning();
  // Issue 28: a PDF or image is read in the background, once per company and file hash.
  await enqueueReading(tx, {
    companyId: permit.companyId,
    sha256: file.sha256,
    sourceKey: file.key,
    filename: file.filename,
    contentType: file.contentType,
  });
  await recordPermitAudit(tx, actor, permit, [
    ...archived.map((a) => ({ action: "archive", field: ATTACHMENT_FIELD, oldValue: a.filename })),
    {
      action: "upload",
      field: kind === "file" ? ATTACHMENT_FIELD : "ledger_document",
      newValue: file.filename,
    },
  ]);
  return inserted!;
}

/** Where a company's uploaded files are stored (attachments, ledger documents, outside parties' uploads). */
export const attachmentPrefix = (companyId: string) => `companies/${companyId}/attachments`;

/**
 * Streams an upload into storage under a server-generated key in the company's namespace, with its
 * size and SHA-256 (checked on every download), then lets `record` write its row; the stored file is
 * removed again if that (or the file itself: empty) fails, so a failed upload leaves nothing behind.
 */
export async function storeUpload<T>(
  storage: Storage,
  companyId: string,
  file: {
    stream: Readable;
    filename: string | undefined;
    mimetype: string | undefined;
    maxBytes: number;
    /** Where under the company's namespace (issue 29: a task's evidence); unset: its attachments. */
    prefix?: string;
  },
  record: (stored: StoredUpload) => Promise<T>,
): Promise<T> {
  const stored = await storage.put(file.prefix ?? attachmentPrefix(companyId), file.stream, file.maxBytes);
  try {
    if (stored.size === 0) throw validation({ file: "The file is empty." });
    return await record({
      ...stored,
      filename: displayFilename(file.filename),
      contentType: normaliseContentType(file.mimetype),
    });
  } catch (err) {
    await storage.remove(stored.key);
    throw err;
  }
}

/**
 * Stores an upload and records it as an attachment of the permit (attachStoredFile), in one
 * transaction that locks the permit's row first, so concurrent uploads leave exactly one current file.
 */
export async function uploadAttachment(
  db: Db,
  storage: Storage,
  actor: Actor,
  permit: { id: string; companyId: string },
  file: {
    stream: Readable;
    filename: string | undefined;
    mimetype: string | undefined;
    maxBytes: number;
    kind?: AttachmentKind;
  },
): Promise<Attachment> {
  const row = await storeUpload(storage, permit.companyId, file, (stored) =>
    db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: permits.id })
        .from(permits)
        .where(eq(permits.id, permit.id))
        .for("update");
      if (!locked) throw notFound("Permit");
      return attachStoredFile(tx, actor, permit, stored, file.kind ?? "file");
    }),
  );
  return present(row, actor.name);
}

/** An attachment whose permit the actor may see (the same scope as findVisiblePermit), or 404. */
export async function findVisibleAttachment(db: Db, actor: Actor, id: string): Promise<AttachmentRow> {
  const [row] = await db
    .select({ attachment: attachments })
    .from(attachments)
    .innerJoin(permits, eq(permits.id, attachments.permitId))
    .where(
      and(
        eq(attachments.id, id),
        scopeConditions(scopeOf(actor), { companyId: permits.companyId, clientId: permits.clientId }),
      ),
    );
  if (!row) throw notFound("Attachment");
  return row.attachment;
}

/** Records the SHA-256 of a file stored before issue 26, computed by its first download. */
export async function recordAttachmentDigest(db: Db, id: string, sha256: string): Promise<void> {
  await db
    .update(attachments)
    .set({ sha256 })
    .where(and(eq(attachments.id, id), isNull(attachments.sha256)));
}
