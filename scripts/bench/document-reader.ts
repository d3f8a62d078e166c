/**
 * The document reader's budgets (issue 28, decision 0030) over the generated fixtures
 * (tests/fixtures/documents): a one-page PDF with a text layer within 1 s, a scanned page within 5 s,
 * each with a new reader process (the worst case) and with a warm one; 20 pages of a 60-page PDF and of
 * a 200,000-page bomb; the serving process's RSS while OCR runs (this process plays it) against the
 * reader's child. No database. `tsx scripts/bench/document-reader.ts [--runs=5] [--json]`; `npm run
 * bench` can take its figures (benchDocumentReader()).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readDocument, warmReader } from "../../server/features/documents/read/index.ts";
import { readerProcessId, stopReaderProcess } from "../../server/features/documents/read/reader-process.ts";
import { generateFixtures, type Fixture } from "../../tests/fixtures/documents/generate.ts";
import {
  arg,
  figure,
  hasFlag,
  isMain,
  loadAverage,
  parseFiguresLine,
  printFigures,
  stats,
  type Figure,
} from "./lib.ts";

const SECTION = "documents";
const BOUNDS = { maxPages: 20, timeoutMs: 30_000 };

function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function timedRead(f: Pick<Fixture, "path" | "contentType">): Promise<number> {
  const bytes = new Uint8Array(fs.readFileSync(f.path));
  const started = performance.now();
  await readDocument(bytes, f.contentType, BOUNDS);
  return performance.now() - started;
}

const timing = (name: string, samples: number[], budget: number | null, note?: string) => {
  const s = stats(samples);
  return figure({
    section: SECTION,
    name,
    unit: "ms",
    db: "-",
    median: s.median,
    p95: s.p95,
    budget,
    n: s.n,
    note,
  });
};

/**
 * The figures: the fixtures made here, then read by a process of their own (`--fixtures=DIR`), which
 * plays the serving process: made only of what a server has when it reads (not pdf-lib, not the
 * renders that made the fixtures), so its RSS is a server's.
 */
export async function benchDocumentReader(runs = 5): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-bench-documents-"));
  try {
    await generateFixtures(dir);
    const stdout = execFileSync(
      process.execPath,
      ["--import", "tsx", fileURLToPath(import.meta.url), `--fixtures=${dir}`, `--runs=${runs}`, "--json"],
      { encoding: "utf8", maxBuffer: 16 * 2 ** 20 },
    );
    return (parseFiguresLine(stdout) ?? []) as Figure[];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const CONTENT_TYPES: Record<string, Fixture["contentType"]> = {
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".tiff": "image/tiff",
};

async function readFixtures(dir: string, runs: number): Promise<Figure[]> {
  const at = (name: string) => ({
    path: path.join(dir, name),
    contentType: CONTENT_TYPES[path.extname(name)]!,
  });
  const text = at("city-building-permit.pdf");
  const scan = at("scanned-city-building-permit.pdf");
  const samples = { textCold: [] as number[], textWarm: [] as number[], scanCold: [] as number[] };
  const more = {
    scanWarm: [] as number[],
    scanWarmed: [] as number[],
    sixty: [] as number[],
    bomb: [] as number[],
  };
  const servingBefore = rssMb(process.pid);
  let servingPeak = 0;
  let childPeak = 0;
  const sampler = setInterval(() => {
    servingPeak = Math.max(servingPeak, rssMb(process.pid));
    const child = readerProcessId();
    if (child) childPeak = Math.max(childPeak, rssMb(child));
  }, 25);
  for (let i = 0; i < runs; i++) {
    stopReaderProcess();
    samples.textCold.push(await timedRead(text));
    samples.textWarm.push(await timedRead(text));
    stopReaderProcess();
    samples.scanCold.push(await timedRead(scan));
    more.scanWarm.push(await timedRead(scan));
    more.sixty.push(await timedRead(at("sixty-page-permit.pdf")));
    more.bomb.push(await timedRead(at("bomb.pdf")));
    stopReaderProcess();
    warmReader();
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // an upload being received and stored
    more.scanWarmed.push(await timedRead(scan));
  }
  clearInterval(sampler);
  stopReaderProcess();
  const load = `load average ${loadAverage()} on ${os.availableParallelism()} cores`;
  return [
    timing("1-page text PDF, new reader process", samples.textCold, 1_000),
    timing("1-page text PDF, warm reader", samples.textWarm, 1_000),
    timing("1 scanned page, new reader process", samples.scanCold, 5_000, load),
    timing("1 scanned page, reader warmed at upload", more.scanWarmed, 5_000),
    timing("1 scanned page, warm reader", more.scanWarm, 5_000),
    timing("60-page PDF, first 20 pages", more.sixty, null),
    timing("200,000-page PDF bomb, first 20 pages", more.bomb, null),
    figure({
      section: SECTION,
      name: "serving process RSS growth while documents are read",
      unit: "MB",
      db: "-",
      median: Math.round(servingPeak - servingBefore),
      budget: 50,
      note: `${Math.round(servingBefore)} → ${Math.round(servingPeak)} MB`,
    }),
    figure({
      section: SECTION,
      name: "reader process RSS, peak",
      unit: "MB",
      db: "-",
      median: Math.round(childPeak),
      note: "the child's OCR worker, PDF.js and the canvas; it ends after a minute idle",
    }),
  ];
}

if (isMain(import.meta.url)) {
  const runs = Number(arg("runs") ?? 5);
  const fixtures = arg("fixtures");
  const figures = fixtures ? await readFixtures(fixtures, runs) : await benchDocumentReader(runs);
  if (hasFlag("json")) printFigures(figures);
  else
    for (const f of figures)
      console.log(
        `${f.name}: ${f.median}${f.unit === "ms" ? ` ms (p95 ${Math.round(f.p95 ?? 0)})` : ` ${f.unit}`}` +
          `${f.budget !== null ? `, budget ${f.budget} ${f.unit}: ${f.verdict}` : ""}${f.note ? ` (${f.note})` : ""}`,
      );
}
