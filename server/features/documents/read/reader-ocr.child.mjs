// The document reader's OCR (decision 0030), in the reader's child process: one tesseract.js worker,
// started on the first image and kept for every later page and document of this process. The English
// data is @tesseract.js-data/eng's, read from node_modules (never a CDN: langPath is a local folder).
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { createWorker, OEM, PSM } from "tesseract.js";

const require = createRequire(import.meta.url);
/** The LSTM-only model (best_int): a third of the full data's size, and the engine tesseract.js runs. */
const LANG_PATH = path.join(
  path.dirname(require.resolve("@tesseract.js-data/eng/package.json")),
  "4.0.0_best_int",
);
const CACHE_PATH = path.join(os.tmpdir(), "permitrack-tesseract-eng-4.0.0_best_int");

let starting = null;

async function warmUpImage() {
  const { createCanvas } = await import("@napi-rs/canvas");
  const canvas = createCanvas(320, 60);
  const context = canvas.getContext("2d");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, 320, 60);
  context.fillStyle = "#000000";
  context.font = "28px sans-serif";
  context.fillText("Permit No. 0417", 12, 40);
  return canvas.encode("png");
}

/** Starts the worker if it is not started yet (a scanned page is coming): later calls wait for the same one. */
export function startOcr() {
  if (!starting) {
    starting = createWorker("eng", OEM.LSTM_ONLY, {
      langPath: LANG_PATH,
      gzip: true,
      // Nothing written: the data is unpacked from node_modules at each start (a few hundred ms), so no
      // half-written cache can break a later start. cachePath only keeps tesseract.js's default (the
      // working directory) out of the way.
      cacheMethod: "none",
      cachePath: CACHE_PATH,
      errorHandler: () => {},
    }).then(async (worker) => {
      // A page of a form: blocks of text in any layout.
      await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO, preserve_interword_spaces: "0" });
      // tesseract's first recognition pays a set-up of its own (seconds on a busy machine): paid here on
      // a line of text, while the page that needs OCR is still being rendered.
      await worker.recognize(await warmUpImage()).catch(() => {});
      return worker;
    });
    starting.catch(() => {
      starting = null;
    });
  }
  return starting;
}

/** The text tesseract recognises on one image (PNG, JPEG, TIFF's first page, BMP). */
export async function recognise(image) {
  const worker = await startOcr();
  const { data } = await worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  return data.text ?? "";
}

export async function stopOcr() {
  const current = starting;
  starting = null;
  if (current) await (await current).terminate();
}
