import type { PageText } from "../../../../shared/domain/document-reading.ts";

/**
 * Issue 28, the reader: a document's text, page by page, read on this machine (the PDF's text layer,
 * OCR for images and pages without one), within the bounds. Runs outside the serving process's heap.
 * (Interface first; the implementation lands with the reader's branch.)
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
  /** Set when a bound stopped the reading: e.g. "Read 20 of 60 pages: the limit is 20." */
  notice: string | null;
}

/** A file the reader cannot read at all (corrupt, encrypted, not a document): `message` says so in words. */
export class UnreadableDocumentError extends Error {}

/** The content types the reader takes; anything else is not read. */
export const READABLE_CONTENT_TYPES = ["application/pdf", "image/png", "image/jpeg", "image/tiff"] as const;

export async function readDocument(
  _bytes: Uint8Array,
  _contentType: string,
  _bounds: ReadBounds,
): Promise<ReadResult> {
  throw new UnreadableDocumentError("The document reader is not built yet.");
}
