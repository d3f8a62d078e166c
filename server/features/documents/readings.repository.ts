import { sql } from "drizzle-orm";
import { scopeOf, type Actor } from "../../access/actor.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { notFound } from "../../errors.ts";
import type { Suggestion } from "../../../shared/domain/document-reading.ts";
import type { DocumentReading } from "../../../shared/schemas/document-readings.ts";

// The scoped reads of document readings and their presentation (DocumentReadingSchema). A reading
// belongs to a company (one per company and file hash); it is shown for a permit's current files,
// a request's latest submission, or the form's staged upload.

const READING_COLUMNS = sql`r.id, r.company_id as "companyId", r.filename, r.status, r.page_count as "pageCount",
  r.pages_read as "pagesRead", r.notice, r.error, r.suggestions, r.pages, r.content_type as "contentType"`;

export interface ReadingRow {
  id: string;
  companyId: string;
  filename: string;
  status: DocumentReading["status"];
  pageCount: number | null;
  pagesRead: number;
  notice: string | null;
  error: string | null;
  suggestions: Suggestion[];
  pages: { page: number; text: string; source: string }[];
  contentType: string;
  attachmentId?: string | null;
  /** The name of the file as shown where the reading is listed (the attachment's or request file's). */
  shownAs?: string | null;
}

export const presentReading = (r: ReadingRow): DocumentReading => ({
  id: r.id,
  filename: r.shownAs ?? r.filename,
  status: r.status,
  pageCount: r.pageCount,
  pagesRead: r.pagesRead,
  notice: r.notice,
  error: r.error,
  suggestions: r.suggestions,
  attachmentId: r.attachmentId ?? null,
});

/** A reading within the actor's company scope, or 404 (another company's is indistinguishable from none). */
export async function findVisibleReading(db: Db, actor: Actor, id: string): Promise<ReadingRow> {
  const { companyId } = scopeOf(actor);
  const [row] = await queryRows<ReadingRow>(
    db,
    sql`select ${READING_COLUMNS} from document_readings r
        where r.id = ${id} ${companyId ? sql`and r.company_id = ${companyId}` : sql``}`,
  );
  if (!row) throw notFound("Reading");
  return row;
}

/**
 * The readings of a permit's current files (its own, not archived, and its ledger documents),
 * newest file first, each with its attachment; a file the reader does not take has none.
 */
export async function listPermitReadings(
  db: Db,
  permit: { id: string; companyId: string },
): Promise<ReadingRow[]> {
  return queryRows<ReadingRow>(
    db,
    sql`select ${READING_COLUMNS}, a.id as "attachmentId", a.filename as "shownAs"
        from attachments a
        join document_readings r on r.company_id = a.company_id and r.sha256 = a.sha256
        where a.permit_id = ${permit.id} and a.company_id = ${permit.companyId} and a.archived = false
        order by a.created_at desc, a.id`,
  );
}

/** The readings of the files of a request's latest submission (or, before one, of the files uploaded so far). */
export async function listRequestReadings(
  db: Db,
  request: { id: string; companyId: string },
): Promise<ReadingRow[]> {
  return queryRows<ReadingRow>(
    db,
    sql`with latest as (
          select s.id from request_submissions s where s.request_id = ${request.id}
          order by s.submitted_at desc, s.id desc limit 1
        )
        select ${READING_COLUMNS}, null as "attachmentId", f.filename as "shownAs"
        from request_files f
        join document_readings r on r.company_id = f.company_id and r.sha256 = f.sha256
        where f.request_id = ${request.id} and f.company_id = ${request.companyId}
          and f.submission_id is not distinct from (select id from latest)
        order by f.created_at desc, f.id`,
  );
}

/** A reading of the permit's company with its file: the one an accept names (404 when it is not the permit's). */
export async function findPermitReading(
  db: Db,
  permit: { id: string; companyId: string },
  readingId: string,
): Promise<ReadingRow> {
  const [row] = await queryRows<ReadingRow>(
    db,
    sql`select ${READING_COLUMNS}, a.id as "attachmentId", coalesce(a.filename, f.filename) as "shownAs"
        from document_readings r
        -- the permit's file with these bytes (its current one first), else a file an outside party
        -- sent for one of its requests: a reading of neither is not this permit's (404)
        left join lateral (
          select a.id, a.filename from attachments a
          where a.permit_id = ${permit.id} and a.company_id = r.company_id and a.sha256 = r.sha256
          order by a.archived, a.created_at desc limit 1
        ) a on true
        left join lateral (
          select f.filename from request_files f join document_requests d on d.id = f.request_id
          where d.permit_id = ${permit.id} and f.sha256 = r.sha256
          order by f.created_at desc limit 1
        ) f on true
        where r.id = ${readingId} and r.company_id = ${permit.companyId}
          and (a.id is not null or f.filename is not null)`,
  );
  if (!row) throw notFound("Reading");
  return row;
}
