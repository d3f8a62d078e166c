// The document reader's child process (decision 0030): reads one document at a time for the serving
// process (reader-process.ts forks it), so PDF.js, the rendering and tesseract's WebAssembly heap never
// grow the server's memory. Plain JavaScript: it starts without a TypeScript loader, and the server's
// bundle runs it from beside itself (scripts/lib/build-server.mjs copies the *.child.mjs files).
//
// Messages in:  { type: "read", id, bytes: Uint8Array, contentType, maxPages, deadline (epoch ms) }
//               or { type: "warm" } (start the OCR worker now)
// Messages out: { type: "opened", id, pageCount } then { type: "page", id, page: { page, text, source } }
//               per page, then { type: "done", id, stopped: null | "pages" | "time" }
//               or { type: "error", id, unreadable: boolean, message }.
// It exits when the serving process goes (the IPC channel closes).
import { imageSize, MAX_IMAGE_PIXELS } from "./reader-image.child.mjs";
import { recognise, startOcr, stopOcr } from "./reader-ocr.child.mjs";
import { openPdf, readPdfPage, Unreadable } from "./reader-pdf.child.mjs";
import { normalisePageText } from "./reader-text.child.mjs";

const send = (message) => new Promise((resolve) => process.send(message, () => resolve()));

async function readPdf(request) {
  const pdf = await openPdf(request.bytes);
  try {
    const pageCount = pdf.numPages;
    await send({ type: "opened", id: request.id, pageCount });
    const last = Math.min(pageCount, request.maxPages);
    for (let n = 1; n <= last; n++) {
      if (Date.now() >= request.deadline) return "time";
      const read = await readPdfPage(pdf, n, () => void startOcr().catch(() => {}));
      const text = read.png ? await recognise(read.png) : read.text;
      await send({
        type: "page",
        id: request.id,
        page: { page: n, text: normalisePageText(text), source: read.source },
      });
    }
    return last < pageCount ? "pages" : null;
  } finally {
    await pdf.destroy().catch(() => {});
  }
}

async function readImage(request) {
  const size = imageSize(request.bytes);
  if (!size)
    throw new Unreadable(
      "This image could not be read: the file is damaged or is not a PNG, JPEG or TIFF image.",
    );
  if (size.width * size.height > MAX_IMAGE_PIXELS)
    throw new Unreadable(
      `This image is too large to read: ${size.width} × ${size.height} pixels (at most ${MAX_IMAGE_PIXELS / 1e6} million).`,
    );
  await send({ type: "opened", id: request.id, pageCount: 1 });
  if (request.maxPages < 1) return "pages";
  let text;
  try {
    text = await recognise(request.bytes);
  } catch (error) {
    throw new Unreadable(`This image could not be read: ${error?.message ?? String(error)}`);
  }
  await send({
    type: "page",
    id: request.id,
    page: { page: 1, text: normalisePageText(text), source: "ocr" },
  });
  return null;
}

async function read(request) {
  try {
    const stopped =
      request.contentType === "application/pdf" ? await readPdf(request) : await readImage(request);
    await send({ type: "done", id: request.id, stopped });
  } catch (error) {
    const unreadable = error instanceof Unreadable;
    await send({ type: "error", id: request.id, unreadable, message: error?.message ?? String(error) });
  }
}

let queue = Promise.resolve();
process.on("message", (message) => {
  if (message?.type === "read") queue = queue.then(() => read(message));
  // A document is on its way (warmReader()): the OCR worker starts meanwhile.
  if (message?.type === "warm") void startOcr().catch(() => {});
});
process.on("disconnect", () => {
  void stopOcr()
    .catch(() => {})
    .finally(() => process.exit(0));
});
