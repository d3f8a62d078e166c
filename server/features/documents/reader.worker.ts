import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import { queryRows, type Db } from "../../db/client.ts";
import type { Metrics } from "../../http/metrics.ts";
import type { Storage } from "../../storage/storage.ts";
import type { PageText } from "../../../shared/domain/document-reading.ts";
import { readDocument, UnreadableDocumentError, warmReader } from "./read/index.ts";
import { suggestFields } from "./suggest/index.ts";
import { claimDueReadings, READ_ATTEMPTS, type ClaimedReading } from "./readings.claim.ts";
import { enqueuedCount } from "./readings.queue.ts";
import { startBackgroundRunner } from "../../http/background-runner.ts";

// Step 2 of reading: the claimed file's bytes through the storage interface, the reader (text
// layer, OCR; bounded by DOCUMENT_MAX_PAGES and DOCUMENT_READ_TIMEOUT_MS), the suggestions, written
// back only while the row still carries this claim. Started with the app (DOCUMENT_READER=on, not
// the SCHEDULER switch), woken right after a request that enqueued a reading, and every POLL_MS for
// what is left (a restart, a retry's time).

/** What the reader needs of the app. */
export interface ReaderContext {
  db: Db;
  storage: Storage;
  config: Pick<Config, "DOCUMENT_MAX_PAGES" | "DOCUMENT_READ_TIMEOUT_MS" | "UPLOAD_MAX_BYTES">;
  metrics?: Metrics;
  log?: Pick<FastifyBaseLogger, "error" | "warn">;
  /** The reader (read/index.ts); a test may hand in its own to decide what a file says or how it fails. */
  read?: typeof readDocument;
}

export const POLL_MS = 30_000;
/** Readings claimed per round (each is read in turn; the lease covers the round). */
const PER_ROUND = 2;
/** The lease: a claimed row is someone else's until then; past it, the reader is taken for dead. */
export const leaseMs = (config: ReaderContext["config"]) =>
  PER_ROUND * config.DOCUMENT_READ_TIMEOUT_MS + 60_000;
/** The wait before try n+1 after a failure that was not the document's own. */
const backoffMs = (attempts: number) => 30_000 * 4 ** (attempts - 1);

export interface ReadReport {
  done: number;
  failed: number;
  retried: number;
}

/** Text PostgreSQL stores (no NUL), as a page's text and the joined content. */
const storable = (text: string) => text.replaceAll("\u0000", "");

async function bytesOf(storage: Storage, key: string, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of storage.read(key)) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new UnreadableDocumentError("The file is larger than uploads may be.");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The reading's outcome, written only while the row still carries our claim; true when it was. */
async function finish(db: Db, r: ClaimedReading, set: ReturnType<typeof sql>): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update document_readings set ${set}, claimed_at = null
        where id = ${r.id} and status = 'reading' and claimed_at = ${r.claimedAt}::timestamptz
        returning id`,
  );
  return rows.length > 0;
}

async function readOne(ctx: ReaderContext, r: ClaimedReading): Promise<keyof ReadReport | null> {
  const started = performance.now();
  const { db, storage, config } = ctx;
  const removeStaged = async () => {
    if (r.staged && r.sourceKey) await storage.remove(r.sourceKey).catch(() => undefined);
  };
  try {
    if (!r.sourceKey) throw new UnreadableDocumentError("The file is no longer stored.");
    const bytes = await bytesOf(storage, r.sourceKey, config.UPLOAD_MAX_BYTES);
    if (createHash("sha256").update(bytes).digest("hex") !== r.sha256)
      throw new Error("The stored file does not match the uploaded one.");
    const result = await (ctx.read ?? readDocument)(new Uint8Array(bytes), r.contentType, {
      maxPages: config.DOCUMENT_MAX_PAGES,
      timeoutMs: config.DOCUMENT_READ_TIMEOUT_MS,
    });
    const pages: PageText[] = result.pages.map((p) => ({ ...p, text: storable(p.text) }));
    const suggestions = suggestFields(pages, { dateOrder: r.dateOrder });
    const readMs = Math.round(performance.now() - started);
    const written = await finish(
      db,
      r,
      sql`status = 'done', error = null, page_count = ${result.pageCount}, pages_read = ${pages.length},
          notice = ${result.notice}, pages = ${JSON.stringify(pages)}::jsonb,
          content = ${pages.map((p) => p.text).join("\n\n")}, suggestions = ${JSON.stringify(suggestions)}::jsonb,
          read_ms = ${readMs}, finished_at = now(),
          source_key = case when staged then null else source_key end`,
    );
    if (!written) return null;
    await removeStaged();
    ctx.metrics?.jobRun("document-reading", "succeeded", readMs / 1000);
    return "done";
  } catch (err) {
    const seconds = (performance.now() - started) / 1000;
    if (err instanceof UnreadableDocumentError) {
      const written = await finish(
        db,
        r,
        sql`status = 'failed', error = ${storable(err.message)}, finished_at = now(),
            source_key = case when staged then null else source_key end`,
      );
      if (!written) return null;
      await removeStaged();
      ctx.metrics?.jobRun("document-reading", "failed", seconds);
      return "failed";
    }
    const message = storable(err instanceof Error ? err.message : String(err));
    ctx.log?.warn({ err, readingId: r.id, attempts: r.attempts }, "a document could not be read now");
    if (r.attempts >= READ_ATTEMPTS) {
      const written = await finish(
        db,
        r,
        sql`status = 'failed', finished_at = now(),
            error = ${`The document could not be read after ${READ_ATTEMPTS} tries: ${message}`}`,
      );
      if (written) ctx.metrics?.jobRun("document-reading", "failed", seconds);
      return written ? "failed" : null;
    }
    const next = new Date(Date.parse(r.claimedAt) + backoffMs(r.attempts)).toISOString();
    const written = await finish(
      db,
      r,
      sql`status = 'pending', error = ${message}, next_attempt_at = ${next}::timestamptz`,
    );
    return written ? "retried" : null;
  }
}

/**
 * Reads every due document, a round of claims at a time, until none is due (or `shouldStop`).
 * Tests call it directly (DOCUMENT_READER=off); the app's reader calls it when woken.
 */
export async function readDueDocuments(
  ctx: ReaderContext,
  opts: { now?: () => Date; shouldStop?: () => boolean } = {},
): Promise<ReadReport> {
  const now = opts.now ?? (() => new Date());
  const report: ReadReport = { done: 0, failed: 0, retried: 0 };
  for (;;) {
    if (opts.shouldStop?.()) return report;
    const claimed = await claimDueReadings(ctx.db, now(), leaseMs(ctx.config), PER_ROUND);
    if (!claimed.length) return report;
    for (const r of claimed) {
      const outcome = await readOne(ctx, r);
      if (outcome) report[outcome]++;
    }
  }
}

/**
 * The app's reader (DOCUMENT_READER=on): a run when the app is ready, after each request that
 * enqueued a reading, and every POLL_MS; one run at a time per app; the app's close waits for the
 * document being read (the lease covers a process that dies instead).
 */
export function startDocumentReader(app: FastifyInstance): void {
  const { ctx } = app;
  if (ctx.config.DOCUMENT_READER === "off") return;
  const reader: ReaderContext = { ...ctx, log: app.log };
  // An upload has begun: the reader's process (and its OCR worker) start while the bytes arrive.
  app.addHook("onRequest", async (request) => {
    if (request.method === "POST" && request.headers["content-type"]?.startsWith("multipart/")) warmReader();
  });
  startBackgroundRunner(app, {
    name: "the document reader",
    pollMs: POLL_MS,
    pending: enqueuedCount,
    run: (shouldStop) => readDueDocuments(reader, { shouldStop }),
  });
}
