// A PDF's pages in the reader's child process (decision 0030): the text layer through unpdf (PDF.js);
// a page without one (a scan) rendered to a PNG with @napi-rs/canvas for OCR.
import { getDocumentProxy, getResolvedPDFJS, renderPageAsImage } from "unpdf";
import { linesFromTextItems, meaningfulCharacters } from "./reader-text.child.mjs";

// PDF.js 5 uses ArrayBuffer.prototype.transferToFixedLength (Node 21+) when it draws images: Node 20's stand-in.
if (!ArrayBuffer.prototype.transferToFixedLength) {
  ArrayBuffer.prototype.transferToFixedLength = function transferToFixedLength(length = this.byteLength) {
    const copy = new ArrayBuffer(length);
    new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
    return copy;
  };
}

/** Fewer letters and digits than this on a page that draws an image: a scan, read by OCR. */
export const MIN_TEXT_LAYER_CHARACTERS = 24;
/** A page is drawn at this resolution for OCR (tesseract reads 10-12 pt text well from 200 dpi; more costs OCR time)... */
const RENDER_DPI = 200;
/** ...unless that makes more pixels than this (a page of absurd dimensions): then smaller. */
const MAX_RENDER_PIXELS = 12_000_000;

export class Unreadable extends Error {}

/** The document, or Unreadable in words: not a PDF, damaged, or protected by a password. */
export async function openPdf(bytes) {
  try {
    // A copy: PDF.js takes over (detaches) the buffer it is given.
    return await getDocumentProxy(new Uint8Array(bytes), {
      verbosity: 0,
      isEvalSupported: false,
      stopAtErrors: false,
    });
  } catch (error) {
    const name = error?.name ?? "";
    if (name === "PasswordException")
      throw new Unreadable("This PDF could not be read: it is protected by a password.");
    if (name === "InvalidPDFException")
      throw new Unreadable("This PDF could not be read: the file is damaged or is not a PDF.");
    throw new Unreadable(`This PDF could not be read: ${error?.message ?? String(error)}`);
  }
}

let paintImageOps = null;

async function drawsAnImage(page) {
  if (!paintImageOps) {
    const { OPS } = await getResolvedPDFJS();
    paintImageOps = new Set([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject]);
  }
  const operators = await page.getOperatorList();
  return operators.fnArray.some((fn) => paintImageOps.has(fn));
}

/**
 * One page's text: its text layer when it has one; else, when it draws an image, `needsOcr` with the
 * page rendered as a PNG (the caller OCRs it). A page with no text and no image is empty text.
 * `onScan` is called as soon as a page has too little text (to start the OCR worker meanwhile).
 */
export async function readPdfPage(pdf, pageNumber, onScan) {
  const page = await pdf.getPage(pageNumber);
  try {
    const content = await page.getTextContent();
    const text = linesFromTextItems(content.items);
    if (meaningfulCharacters(text) >= MIN_TEXT_LAYER_CHARACTERS) return { text, source: "text" };
    onScan(); // most likely a scan: the OCR worker starts while the page is looked at and drawn
    if (!(await drawsAnImage(page))) return { text, source: "text" };
    const base = page.getViewport({ scale: 1 });
    const wanted = RENDER_DPI / 72;
    const fits = Math.sqrt(MAX_RENDER_PIXELS / Math.max(1, base.width * base.height));
    const png = await renderPageAsImage(pdf, pageNumber, {
      canvasImport: () => import("@napi-rs/canvas"),
      scale: Math.min(wanted, fits),
    });
    return { text, source: "ocr", png: new Uint8Array(png) };
  } finally {
    page.cleanup();
  }
}
