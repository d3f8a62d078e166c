/** What `npm run bench` collects while it runs: the figures, the notes and each section's time. */
import { dbLabel, figure, loadAverage, type DbKind, type Figure } from "./lib.ts";
import type { Section } from "./run-options.ts";

/** Budgets judged on PostgreSQL only: on PGlite these sections' figures are information. */
const PG_BUDGETS = new Set([
  "api",
  "throughput",
  "browser",
  "import-export",
  "reminders",
  "bonds",
  "profile",
]);

/** A figure from another process's --json line, made whole and judged as ours are. */
export function adopt(raw: Partial<Figure>, section: string, db: DbKind | "-"): Figure {
  const base = {
    section: raw.section ?? section,
    name: raw.name ?? "(unnamed)",
    unit: raw.unit ?? "",
    db: raw.db && raw.db !== "-" ? raw.db : db,
    median: raw.median ?? null,
    p95: raw.p95 ?? null,
    budget: raw.budget ?? null,
    budgetKind: raw.budgetKind,
    judged: raw.judged,
    n: raw.n,
    note: raw.note,
  };
  return figure(
    raw.verdict === "error" || raw.verdict === "skipped" ? { ...base, verdict: raw.verdict } : base,
  );
}

/** PGlite's figures beside PostgreSQL's budgets: kept, but not judged. */
function judgeForDb(f: Figure): Figure {
  const statements = f.unit === "statements";
  if (
    f.db === "pglite" &&
    PG_BUDGETS.has(f.section) &&
    !statements &&
    (f.verdict === "pass" || f.verdict === "over")
  )
    return { ...f, verdict: "info" };
  return f;
}

export class Recorder {
  readonly figures: Figure[] = [];
  readonly notes: string[] = [];
  readonly sectionSeconds: { section: string; db: string; seconds: number }[] = [];

  constructor(private readonly sections: Set<Section>) {}

  /** Runs one section if chosen; a failure is a row of the table (and exit code 1), and the run goes on. */
  async section(name: Section, db: DbKind | "-", fn: () => Promise<Figure[]>): Promise<void> {
    if (!this.sections.has(name)) return;
    const t = performance.now();
    console.log(
      `\n== ${name} (${db === "-" ? "no database of ours" : dbLabel(db)})  load average ${loadAverage()}`,
    );
    try {
      this.figures.push(...(await fn()).map(judgeForDb));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      console.error(`  ${name} failed: ${err instanceof Error ? (err.stack ?? message) : message}`);
      this.figures.push(
        figure({
          section: name,
          db,
          name: `failed: ${message.split("\n")[0]!.slice(0, 100)}`,
          unit: "",
          median: null,
          verdict: "error",
        }),
      );
    } finally {
      const seconds = (performance.now() - t) / 1000;
      this.sectionSeconds.push({ section: name, db, seconds });
      console.log(`  (${seconds.toFixed(0)} s)`);
    }
  }

  count(verdict: Figure["verdict"]) {
    return this.figures.filter((f) => f.verdict === verdict).length;
  }
}
