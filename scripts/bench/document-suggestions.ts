/**
 * Issue 28: how well the suggester reads documents. For each set of documents with known values, the
 * precision and recall of every field and overall, the dates suggested wrong (must be none: a relative
 * phrase or an impossible date never becomes one) and the time suggestFields() takes per page.
 *
 * The sets:
 *   samples      the suggester's own text cases (server/features/documents/suggest/sample-texts.ts)
 *   layouts      the fixture layouts' text as lines (tests/fixtures/documents/layouts.ts), as a text layer
 *                gives it
 *   layouts-noisy  the same lines as a poor scan's OCR would give them (simulateOcr: O for 0, l for 1,
 *                stray spaces, values below their labels)
 *   text-layer   the generated fixture files (tests/fixtures/documents/generate.ts) read with readDocument():
 *   ocr          the PDFs with a text layer in one set, the images and the scanned PDFs (OCR) in the other
 *   ocr-poor     the layouts as poor scans (85 dpi, turned, grainy JPEG: document-scans.ts) read by OCR,
 *                for information (a value the OCR garbled cannot be found)
 *
 * Budgets: recall 100 % on text (samples, layouts, text-layer), at least 90 % on OCR (ocr, layouts-noisy);
 * no wrong date; at most 5 ms per page (p95).
 *
 *   npx tsx scripts/bench/document-suggestions.ts [--sets=samples,layouts,layouts-noisy,text-layer,ocr,ocr-poor]
 *     [--verbose] [--json]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  DATE_SUGGESTION_FIELDS,
  SUGGESTION_FIELDS,
  type DateOrder,
  type PageText,
  type Suggestion,
  type SuggestionField,
} from "../../shared/domain/document-reading.ts";
import { suggestFields } from "../../server/features/documents/suggest/index.ts";
import { SAMPLE_TEXTS, simulateOcr } from "../../server/features/documents/suggest/sample-texts.ts";
import { generateFixtures } from "../../tests/fixtures/documents/generate.ts";
import { LAYOUTS } from "../../tests/fixtures/documents/layouts.ts";
import { readDocument } from "../../server/features/documents/read/index.ts";
import { poorScans } from "./document-scans.ts";
import { arg, figure, hasFlag, isMain, printFigures, stats, type Figure } from "./lib.ts";

export interface BenchDocument {
  name: string;
  pages: PageText[];
  dateOrder: DateOrder;
  expected: Partial<Record<SuggestionField, string>>;
}

type SetName = "samples" | "layouts" | "layouts-noisy" | "text-layer" | "ocr" | "ocr-poor";
const SETS: SetName[] = ["samples", "layouts", "layouts-noisy", "text-layer", "ocr", "ocr-poor"];
/** The least recall each set must reach (%); null: for information. */
const RECALL_BUDGET: Record<SetName, number | null> = {
  samples: 100,
  layouts: 100,
  "layouts-noisy": 90,
  "text-layer": 100,
  ocr: 90,
  "ocr-poor": null,
};
/** The sets whose wrong dates are the suggester's own (on a poor scan, the OCR can misread a digit). */
const NO_WRONG_DATE = new Set<SetName>(["samples", "layouts", "layouts-noisy", "text-layer", "ocr"]);
const MS_PER_PAGE_BUDGET = 5;
const TIMED_RUNS = 5;

// ---------------------------------------------------------------------------------------------
// Scoring

/** Names compare without case, spaces or trailing punctuation ("CITY OF X." = "City of X"); the rest exactly. */
function same(field: SuggestionField, a: string, b: string): boolean {
  if (field !== "agency" && field !== "surety_company") return a === b;
  const n = (s: string) =>
    s
      .toLowerCase()
      .replace(/\s+/g, " ")
      .replace(/[\s.,;:]+$/, "")
      .trim();
  return n(a) === n(b);
}

/**
 * `suggested` counts the suggestions that are checked: every one for a field the document names, and
 * every date and amount (a document that names none must give none: layouts.ts's rule). A name, a
 * number or a result the expected values leave out (a bond's obligee as its agency, a letterhead's
 * city) is `unchecked`: listed, not counted for or against.
 */
interface Count {
  expected: number;
  suggested: number;
  correct: number;
  unchecked: number;
}
export interface SetScore {
  documents: number;
  pages: number;
  byField: Record<SuggestionField, Count>;
  all: Count;
  wrongDates: string[];
  misses: string[];
  unchecked: string[];
  msPerPage: number[];
}

const checkedAlways = (field: SuggestionField) =>
  DATE_SUGGESTION_FIELDS.includes(field) || field === "bond_amount";

export function scoreSet(docs: BenchDocument[]): SetScore {
  const zero = (): Count => ({ expected: 0, suggested: 0, correct: 0, unchecked: 0 });
  const byField = Object.fromEntries(SUGGESTION_FIELDS.map((f) => [f, zero()])) as Record<
    SuggestionField,
    Count
  >;
  const score: SetScore = {
    documents: docs.length,
    pages: 0,
    byField,
    all: zero(),
    wrongDates: [],
    misses: [],
    unchecked: [],
    msPerPage: [],
  };
  // Warm: the first call compiles the patterns.
  for (const doc of docs) suggestFields(doc.pages, { dateOrder: doc.dateOrder });
  for (const doc of docs) {
    score.pages += doc.pages.length;
    // Each document's time: the median of a few runs (one run can meet a garbage collection).
    let got: Suggestion[] = [];
    const runs: number[] = [];
    for (let r = 0; r < TIMED_RUNS; r++) {
      const t = performance.now();
      got = suggestFields(doc.pages, { dateOrder: doc.dateOrder });
      runs.push((performance.now() - t) / Math.max(1, doc.pages.length));
    }
    score.msPerPage.push(stats(runs).median);
    const found = new Map<SuggestionField, Suggestion>(got.map((s) => [s.field, s]));
    for (const field of SUGGESTION_FIELDS) {
      const want = doc.expected[field];
      const s = found.get(field);
      const c = byField[field];
      const said = s && `${JSON.stringify(s.value)} (${s.confidence}) from "${s.snippet}"`;
      if (want !== undefined) c.expected++;
      if (s && want === undefined && !checkedAlways(field)) {
        c.unchecked++;
        score.unchecked.push(`${doc.name}: ${field} ${said}`);
        continue;
      }
      if (s) c.suggested++;
      const ok = Boolean(s && want !== undefined && same(field, s.value, want));
      if (ok) c.correct++;
      if (s && !ok && DATE_SUGGESTION_FIELDS.includes(field))
        score.wrongDates.push(`${doc.name}: ${field} ${said} (expected ${want ?? "none"})`);
      if (!ok && (want !== undefined || s))
        score.misses.push(
          `${doc.name}: ${field} expected ${want === undefined ? "none" : JSON.stringify(want)}, got ${said ?? "nothing"}`,
        );
    }
  }
  for (const c of Object.values(byField)) {
    score.all.expected += c.expected;
    score.all.suggested += c.suggested;
    score.all.correct += c.correct;
    score.all.unchecked += c.unchecked;
  }
  return score;
}

const pct = (n: number, d: number) => (d === 0 ? null : (100 * n) / d);
const show = (v: number | null) => (v === null ? "-" : `${v.toFixed(1)} %`);

export function scoreTable(score: SetScore): string {
  const rows = [["field", "expected", "suggested", "correct", "precision", "recall", "unchecked"]];
  const row = (name: string, c: Count) =>
    rows.push([
      name,
      String(c.expected),
      String(c.suggested),
      String(c.correct),
      show(pct(c.correct, c.suggested)),
      show(pct(c.correct, c.expected)),
      String(c.unchecked),
    ]);
  for (const field of SUGGESTION_FIELDS) row(field, score.byField[field]);
  row("all fields", score.all);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  return [
    line(rows[0]!),
    `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`,
    ...rows.slice(1).map(line),
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------
// The sets

function layoutDocuments(): BenchDocument[] {
  return LAYOUTS.map((l) => ({
    name: l.name,
    dateOrder: l.dateOrder ?? "MDY",
    expected: l.expected,
    pages: l.pages.map((lines, i) => ({ page: i + 1, text: lines.join("\n"), source: "text" as const })),
  }));
}

/** The layouts as a poor scan's OCR would give them (simulateOcr: O for 0, l for 1, stray spaces, values below labels). */
function noisy(docs: BenchDocument[]): BenchDocument[] {
  return docs.map((d) => ({
    ...d,
    name: `${d.name} (simulated OCR)`,
    pages: d.pages.map((p) => ({ ...p, text: simulateOcr(p.text.split("\n")), source: "ocr" as const })),
  }));
}

/** The generated files read as the server reads them: by text layer, and by OCR (images, scanned PDFs). */
async function fileDocuments(
  log: (s: string) => void,
): Promise<Record<"text-layer" | "ocr", BenchDocument[]>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-docs-bench-"));
  const out: Record<"text-layer" | "ocr", BenchDocument[]> = { "text-layer": [], ocr: [] };
  try {
    const fixtures = await generateFixtures(dir);
    for (const f of fixtures) {
      // The corrupt file and the bomb test the reader, not the suggester.
      if (!Object.keys(f.expected).length) continue;
      const t = performance.now();
      let pages: PageText[];
      try {
        pages = (
          await readDocument(new Uint8Array(fs.readFileSync(f.path)), f.contentType, {
            maxPages: 20,
            timeoutMs: 30_000,
          })
        ).pages;
      } catch (err) {
        log(`  ${f.name}: unreadable (${(err as Error).message}); its fields count as missed`);
        pages = [];
      }
      const ocr = !f.textLayer || pages.some((p) => p.source === "ocr");
      log(`  read ${f.name} (${ocr ? "OCR" : "text layer"}) in ${Math.round(performance.now() - t)} ms`);
      out[ocr ? "ocr" : "text-layer"].push({
        name: f.name,
        pages,
        expected: f.expected,
        dateOrder: f.layout?.dateOrder ?? "MDY",
      });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

export async function benchDocumentSuggestions(
  opts: { sets?: SetName[]; verbose?: boolean; log?: (s: string) => void } = {},
): Promise<Figure[]> {
  const log = opts.log ?? console.log;
  const sets = opts.sets ?? SETS;
  const figures: Figure[] = [];
  const docs = new Map<SetName, BenchDocument[]>();
  if (sets.includes("samples")) docs.set("samples", SAMPLE_TEXTS);
  if (sets.includes("layouts")) docs.set("layouts", layoutDocuments());
  if (sets.includes("layouts-noisy")) docs.set("layouts-noisy", noisy(layoutDocuments()));
  if (sets.includes("text-layer") || sets.includes("ocr")) {
    const files = await fileDocuments(log);
    for (const s of ["text-layer", "ocr"] as const) if (sets.includes(s)) docs.set(s, files[s]);
  }
  if (sets.includes("ocr-poor")) docs.set("ocr-poor", await poorScans(log));
  for (const [set, list] of docs) {
    if (!list.length) {
      log(`Note: ${set} has no documents.`);
      continue;
    }
    const score = scoreSet(list);
    log(`\nDocument suggestions, ${set}: ${score.documents} documents, ${score.pages} pages`);
    log(scoreTable(score));
    const ms = stats(score.msPerPage);
    log(
      `Wrong dates: ${score.wrongDates.length}. suggestFields per page: median ${ms.median.toFixed(2)} ms, max ${ms.max.toFixed(2)} ms.`,
    );
    for (const w of score.wrongDates) log(`  wrong date: ${w}`);
    const misses = opts.verbose ? score.misses : score.misses.slice(0, 15);
    for (const m of misses) log(`  miss: ${m}`);
    if (opts.verbose) for (const u of score.unchecked) log(`  unchecked: ${u}`);
    else if (score.unchecked.length)
      log(`  ${score.unchecked.length} unchecked suggestions (--verbose lists them)`);
    if (misses.length < score.misses.length)
      log(`  … ${score.misses.length - misses.length} more (--verbose)`);
    const base = { section: "documents", db: "-" as const, n: score.documents };
    figures.push(
      figure({
        ...base,
        name: `${set}: recall, all fields`,
        unit: "%",
        median: pct(score.all.correct, score.all.expected),
        budget: RECALL_BUDGET[set],
        budgetKind: "min",
      }),
      figure({
        ...base,
        name: `${set}: precision, all fields`,
        unit: "%",
        median: pct(score.all.correct, score.all.suggested),
      }),
      figure({
        ...base,
        name: `${set}: wrong dates`,
        unit: "dates",
        median: score.wrongDates.length,
        budget: NO_WRONG_DATE.has(set) ? 0 : null,
      }),
      figure({
        ...base,
        name: `${set}: suggestFields per page`,
        unit: "ms",
        median: ms.median,
        p95: ms.p95,
        budget: MS_PER_PAGE_BUDGET,
        judged: "p95",
      }),
    );
  }
  return figures;
}

if (isMain(import.meta.url)) {
  const sets = arg("sets")
    ?.split(",")
    .map((s) => s.trim()) as SetName[] | undefined;
  for (const s of sets ?? [])
    if (!SETS.includes(s)) throw new Error(`--sets: unknown set ${s} (${SETS.join(", ")})`);
  const figures = await benchDocumentSuggestions({ sets, verbose: hasFlag("verbose") });
  const over = figures.filter((f) => f.verdict === "over");
  console.log(
    `\n${over.length ? `Over budget: ${over.map((f) => f.name).join("; ")}` : "Every figure within its budget."}`,
  );
  if (hasFlag("json")) printFigures(figures);
  process.exitCode = over.length ? 1 : 0;
}
