/**
 * Issue 28's bench: the fixture layouts as a poor scan — drawn as PDFs (tests/fixtures/documents/generate.ts),
 * rendered at 85 dpi, turned by 0.8°, grainy, saved as a JPEG of quality 35 — and read back with
 * readDocument() (OCR). Real OCR of the generated fixtures (200 dpi, square, clean) is nearly perfect;
 * these pages show what the suggester makes of the OCR's slips ("Penmit#", "$1.250,000,00", a form's two
 * columns read one after the other). For information: a value the OCR garbled cannot be found.
 */
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { renderPageAsImage } from "unpdf";
import { layoutPdf } from "../../tests/fixtures/documents/generate.ts";
import { LAYOUTS } from "../../tests/fixtures/documents/layouts.ts";
import { readDocument } from "../../server/features/documents/read/index.ts";
import type { BenchDocument } from "./document-suggestions.ts";

const DPI = 85;
const TURN_DEGREES = 0.8;
const GRAIN = 90;
const JPEG_QUALITY = 35;

/** Page 1 of a PDF as a poor scan's JPEG. Deterministic (a fixed seed for the grain). */
async function poorScan(pdf: Uint8Array): Promise<Uint8Array> {
  const png = await renderPageAsImage(new Uint8Array(pdf), 1, {
    canvasImport: () => import("@napi-rs/canvas"),
    scale: DPI / 72,
  });
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const c = canvas.getContext("2d");
  c.fillStyle = "#ffffff";
  c.fillRect(0, 0, image.width, image.height);
  c.translate(image.width / 2, image.height / 2);
  c.rotate((TURN_DEGREES * Math.PI) / 180);
  c.translate(-image.width / 2, -image.height / 2);
  c.drawImage(image, 0, 0);
  c.setTransform(1, 0, 0, 1, 0, 0);
  const pixels = c.getImageData(0, 0, canvas.width, canvas.height);
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let p = 0; p < pixels.data.length; p += 4) {
    const grain = (random() - 0.5) * GRAIN;
    for (let k = 0; k < 3; k++) pixels.data[p + k] = Math.max(0, Math.min(255, pixels.data[p + k]! + grain));
  }
  c.putImageData(pixels, 0, 0);
  return new Uint8Array(await canvas.encode("jpeg", JPEG_QUALITY));
}

export async function poorScans(log: (s: string) => void): Promise<BenchDocument[]> {
  const out: BenchDocument[] = [];
  for (const layout of LAYOUTS.filter((l) => l.ocr)) {
    const t = performance.now();
    const jpeg = await poorScan(await layoutPdf(layout));
    const { pages } = await readDocument(jpeg, "image/jpeg", { maxPages: 1, timeoutMs: 30_000 });
    log(`  read ${layout.name} (poor scan, OCR) in ${Math.round(performance.now() - t)} ms`);
    out.push({
      name: `${layout.name} (poor scan)`,
      pages,
      expected: layout.expected,
      dateOrder: layout.dateOrder ?? "MDY",
    });
  }
  return out;
}
