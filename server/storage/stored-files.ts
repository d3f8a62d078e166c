import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../db/client.ts";

/** A file the database refers to, as its row recorded it. */
export interface StoredFileRow {
  /**
   * Which row holds it: an attachment (a permit's file or a ledger document), a company's logo, or
   * an outside party's upload not yet approved (issue 27; once approved its attachment shares the key),
   * a condition task's evidence (issue 29).
   */
  owner: "attachment" | "logo" | "request_file" | "evidence";
  /** The row's id (the company's for a logo). */
  id: string;
  companyId: string;
  /** The storage key (storage.ts): `s3:<object key>` in the bucket, else under DATA_DIR/files. */
  key: string;
  /** Null only for rows stored before issue 26 (a logo's size, any file's hash) not yet filled in. */
  size: number | null;
  sha256: string | null;
}

const PAGE = 500;

/**
 * Every file the database refers to, one page of rows at a time (keyset on owner and id, so rows
 * written meanwhile neither repeat nor shift a page): attachments, logos, then the outside parties'
 * uploads that are no attachment yet, the condition tasks' evidence. What `npm run storage:migrate` goes through; read each file
 * with `storage.read(key)`.
 */
export async function* listStoredFiles(db: Db, pageSize = PAGE): AsyncGenerator<StoredFileRow> {
  let after: { owner: string; id: string } = { owner: "", id: "00000000-0000-0000-0000-000000000000" };
  for (;;) {
    const rows = await queryRows<StoredFileRow>(
      db,
      sql`select * from (
            select 'attachment' as owner, id, company_id as "companyId", storage_key as key, size, sha256
              from attachments
            union all
            select 'logo' as owner, id, id as "companyId", logo_key as key, logo_size as size, logo_sha256 as sha256
              from companies where logo_key is not null
            union all
            select 'request_file' as owner, id, company_id as "companyId", storage_key as key, size, sha256
              from request_files where attachment_id is null
            union all
            select 'evidence' as owner, id, company_id as "companyId", evidence_key as key, evidence_size as size,
                   evidence_sha256 as sha256
              from condition_tasks where evidence_key is not null
          ) f
          where (f.owner, f.id) > (${after.owner}, ${after.id}::uuid)
          order by f.owner, f.id
          limit ${pageSize}`,
    );
    yield* rows;
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1]!;
  }
}
