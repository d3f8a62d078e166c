import type { PageText } from "../../../../shared/domain/document-reading.ts";
import { ChildUnreadable, readInChild, warmReaderProcess } from "./reader-process.ts";

/**
 * Issue 28, the reader (decision 0030): a document's text, page by page, read on this machine (the
 * PDF's text layer through unpdf, OCR through tesseract.js with the English data from node_modules for
 * images and for pages without a text layer), within the bounds. It runs in a child process
 * (reader.child.mjs, driven by reader-process.ts): the serving process's heap never holds PDF.js's
 * objects, the rendered pages or tesseract's WebAssembly memory.
 */
export interface ReadBounds {
  /** At most this many pages are read (DOCUMENT_MAX_PAGES, 20). */
  maxPages: number;
  /** At most this long for the whole document (DOCUMENT_READ_TIMEOUT_MS, 30 000). */
  timeoutMs: number;
}

export interface ReadResult {
  /** The document's page count when known (a PDF's), else null; an image is 1. */
  pageCount: number | null;
  pages: PageText[];
  /** Set when a bound stopped the reading: e.g. "Read 20 of 60 pages: the limit is 20 pages." */
  notice: string | null;
}

/** A file the reader cannot read at all (corrupt, encrypted, not a document): `message` says so in words. */
export class UnreadableDocumentError extends Error {
  override name = "UnreadableDocumentError";
}

/** The reader's process ended while it read (crashed, killed, out of memory): worth another attempt later. */
export { ReaderStoppedError } from "./reader-process.ts";

/** The content types the reader takes; anything else is not read. */
export const READABLE_CONTENT_TYPES = ["application/pdf", "image/png", "image/jpeg", "image/tiff"] as const;

export type ReadableContentType = (typeof READABLE_CONTENT_TYPES)[number];

export function isReadableContentType(contentType: string): contentType is ReadableContentType {
  return (READABLE_CONTENT_TYPES as readonly string[]).includes(baseType(contentType));
}

function baseType(contentType: string): string {
  return contentType.split(";")[0]!.trim().toLowerCase();
}

/**
 * Optional: a document is on its way (an upload of a readable type has begun). The reader's process
 * and its OCR worker start meanwhile, so that a scanned page is read in about a second and a half
 * rather than three to five. They go again after a minute without a document.
 */
export function warmReader(): void {
  warmReaderProcess();
}

/**
 * The document's pages as read. Past a bound: the pages read so far and a notice in words. Throws
 * UnreadableDocumentError for a file that cannot be read (a type not in READABLE_CONTENT_TYPES, a
 * damaged or password-protected PDF, an image too large) and ReaderStoppedError when the reader's
 * process died meanwhile.
 */
export async function readDocument(
  bytes: Uint8Array,
  contentType: string,
  bounds: ReadBounds,
): Promise<ReadResult> {
  const type = baseType(contentType);
  if (!isReadableContentType(type))
    throw new UnreadableDocumentError("Only PDF, PNG, JPEG and TIFF files can be read.");
  if (bytes.byteLength === 0) throw new UnreadableDocumentError("This file is empty.");
  const maxPages = Math.max(0, Math.floor(bounds.maxPages));
  const timeoutMs = Math.max(1, Math.floor(bounds.timeoutMs));
  let reading;
  try {
    reading = await readInChild(bytes, type, maxPages, timeoutMs);
  } catch (error) {
    if (error instanceof ChildUnreadable) throw new UnreadableDocumentError(error.message);
    throw error;
  }
  const pages = [...reading.pages].sort((a, b) => a.page - b.page);
  return {
    pageCount: reading.pageCount,
    pages,
    notice: noticeOf(reading.stopped, pages.length, reading.pageCount, maxPages, timeoutMs),
  };
}

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : Number(s.toFixed(1))} ${s === 1 ? "second" : "seconds"}`;
}

/** "Read 20 of 60 pages: the limit is 20 pages." / "Stopped after 30 seconds: read 3 of 5 pages." */
export function noticeOf(
  stopped: null | "pages" | "time",
  read: number,
  pageCount: number | null,
  maxPages: number,
  timeoutMs: number,
): string | null {
  if (stopped === "pages")
    return `Read ${count(read)} of ${plural(pageCount ?? read, "page", "pages")}: the limit is ${plural(maxPages, "page", "pages")}.`;
  if (stopped === "time")
    return pageCount === null
      ? `Stopped after ${seconds(timeoutMs)}: the document was not opened in time.`
      : `Stopped after ${seconds(timeoutMs)}: read ${count(read)} of ${plural(pageCount, "page", "pages")}.`;
  return null;
}
