import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../../db/client.ts";
import { READABLE_CONTENT_TYPES } from "./read/index.ts";

/** A file the reader takes (PDF, PNG, JPEG, TIFF): anything else is never enqueued. */
export const isReadable = (contentType: string): boolean =>
  (READABLE_CONTENT_TYPES as readonly string[]).includes(contentType.toLowerCase().split(";")[0]!.trim());

export interface ReadingRequest {
  companyId: string;
  sha256: string;
  /** A storage key holding the bytes. */
  sourceKey: string;
  filename: string;
  contentType: string;
  /** The new-permit form's file, uploaded before the permit exists: its object goes once read. */
  staged?: boolean;
}

/** Processes that enqueued a reading since the reader last looked (the reader's nudge). */
let enqueued = 0;
/** How many readings were enqueued in this process so far: the reader wakes when it moves. */
export const enqueuedCount = () => enqueued;

/**
 * Asks for a file to be read, in the caller's transaction: one reading per company and file hash
 * (the same file uploaded twice, to two permits or as a party's and then an attachment, is read
 * once). Returns the new reading's id, or null when the file is not readable or is read already.
 */
export async function enqueueReading(tx: Db, file: ReadingRequest): Promise<string | null> {
  if (!isReadable(file.contentType)) return null;
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into document_readings (company_id, sha256, source_key, filename, content_type, staged)
        values (${file.companyId}, ${file.sha256}, ${file.sourceKey}, ${file.filename},
                ${file.contentType.toLowerCase().split(";")[0]!.trim()}, ${file.staged ?? false})
        on conflict (company_id, sha256) do nothing
        returning id`,
  );
  if (row) enqueued++;
  return row?.id ?? null;
}
