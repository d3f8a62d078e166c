/**
 * The figures of the benchmarks `npm run bench` runs as processes of their own (the browser, the
 * reminder sweep, the start-up), read from their --json line (startup.mjs: from its text output
 * when it prints none).
 */
import fs from "node:fs";
import path from "node:path";
import { benchDocumentReader } from "./document-reader.ts";
import { figure, parseFiguresLine, root, type DbKind, type Figure } from "./lib.ts";
import { BENCH } from "./permits-data.ts";
import { runCommand } from "./processes.ts";
import { adopt } from "./run-recorder.ts";
import type { ServerChild } from "./server-child.ts";

const browserScript = path.join(root, "scripts", "bench", "browser.ts");

/** The browser benchmark against a running server, as a process of its own (its --json line). */
export async function browserFigures(
  server: ServerChild,
  db: DbKind,
  rounds: number,
  notes: string[],
): Promise<Figure[]> {
  if (!fs.existsSync(browserScript)) {
    notes.push("scripts/bench/browser.ts does not exist: the browser figures were not measured");
    return [
      figure({
        section: "browser",
        db,
        name: "not run: scripts/bench/browser.ts missing",
        unit: "",
        median: null,
        verdict: "skipped",
      }),
    ];
  }
  const { code, stdout } = await runCommand(process.execPath, [
    "--import",
    "tsx",
    browserScript,
    `--url=${server.base}`,
    `--email=${BENCH.users.admin}`,
    `--password=${BENCH.password}`,
    `--db=${db}`,
    `--rounds=${rounds}`,
    "--json",
  ]);
  const parsed = parseFiguresLine(stdout);
  if (code !== 0 || !parsed)
    throw new Error(`scripts/bench/browser.ts exited ${code}${parsed ? "" : " without a --json line"}`);
  for (const line of stdout.split("\n"))
    if (line.startsWith("Note: ")) notes.push(`browser (${db}): ${line.slice(6)}`);
  return parsed.map((f) => adopt(f, "browser", db));
}

/** The reminder sweep in a process of its own (its RSS is the sweep's alone). */
export async function reminderFigures(
  db: DbKind,
  size: { permits: number; companies: number },
): Promise<Figure[]> {
  const { code, stdout } = await runCommand(process.execPath, [
    "--import",
    "tsx",
    path.join(root, "scripts", "bench", "reminders-sweep.ts"),
    `--db=${db}`,
    `--permits=${size.permits}`,
    `--companies=${size.companies}`,
    "--json",
  ]);
  const parsed = parseFiguresLine(stdout);
  if (code !== 0 || !parsed)
    throw new Error(`reminders-sweep.ts exited ${code}${parsed ? "" : " without a --json line"}`);
  return parsed.map((f) => adopt(f, "reminders", db));
}

/**
 * Issue 28: the document suggestions' precision and recall (scripts/bench/document-suggestions.ts) in a
 * process of its own: the OCR it runs on the generated fixtures stays out of this one. It exits 1 when
 * a figure is over its budget: that is a verdict, not a failure.
 */
export async function documentFigures(notes: string[]): Promise<Figure[]> {
  const { code, stdout } = await runCommand(process.execPath, [
    "--import",
    "tsx",
    path.join(root, "scripts", "bench", "document-suggestions.ts"),
    "--json",
  ]);
  const parsed = parseFiguresLine(stdout);
  if ((code !== 0 && code !== 1) || !parsed)
    throw new Error(`document-suggestions.ts exited ${code}${parsed ? "" : " without a --json line"}`);
  for (const line of stdout.split("\n"))
    if (line.startsWith("Note: ")) notes.push(`documents: ${line.slice(6)}`);
  // The reader's own budgets (document-reader.ts, a process of its own over freshly generated
  // fixtures): a 1-page text PDF within 1 s, a scanned page within 5 s, the serving process's RSS.
  const reader = await benchDocumentReader(3);
  return [...parsed, ...reader].map((f) => adopt(f, "documents", "-"));
}

/**
 * The serving process's memory on PGlite (server-memory.ts) on this Node and on Node 24
 * (scripts/lib/node24.mjs: fetched once into .cache/node24), each in a process of its own.
 */
export async function memoryFigures(size: { permits: number; companies: number }): Promise<Figure[]> {
  const node24 = await runCommand(process.execPath, [path.join(root, "scripts", "lib", "node24.mjs")]);
  const lines: { label: string; node: string }[] = [
    { label: `Node ${process.versions.node.split(".")[0]}`, node: process.execPath },
  ];
  if (node24.code === 0) lines.push({ label: "Node 24", node: node24.stdout.trim().split("\n").at(-1)! });
  const out: Figure[] = [];
  for (const { label, node } of lines) {
    const { code, stdout } = await runCommand(process.execPath, [
      "--import",
      "tsx",
      path.join(root, "scripts", "bench", "server-memory.ts"),
      `--node=${node}`,
      `--label=${label}`,
      `--permits=${size.permits}`,
      `--companies=${size.companies}`,
      "--json",
    ]);
    const parsed = parseFiguresLine(stdout);
    if (code !== 0 || !parsed)
      throw new Error(`server-memory.ts (${label}) exited ${code}${parsed ? "" : " without a --json line"}`);
    out.push(...parsed.map((f) => adopt(f, "memory", "pglite")));
  }
  if (node24.code !== 0)
    out.push(
      figure({
        section: "memory",
        db: "pglite",
        name: "Node 24: not measured (scripts/lib/node24.mjs could not fetch it)",
        unit: "",
        median: null,
        verdict: "error",
      }),
    );
  return out;
}

/**
 * startup.mjs: its --json line when it prints one; else the lines it prints today, read one by one
 * (each figure it does not print is a row saying so).
 */
export async function startupFigures(notes: string[]): Promise<Figure[]> {
  const { code, stdout } = await runCommand(process.execPath, [
    path.join(root, "scripts", "bench", "startup.mjs"),
    "--json",
  ]);
  if (code !== 0) throw new Error(`startup.mjs exited ${code}`);
  const parsed = parseFiguresLine(stdout);
  if (parsed) return parsed.map((f) => adopt(f, "startup", "pglite"));
  const common = { section: "startup", db: "pglite" } as const;
  const found = (re: RegExp) => {
    const m = re.exec(stdout);
    return m ? m.slice(1).map(Number) : null;
  };
  const out: Figure[] = [];
  const missing = (name: string) =>
    out.push(
      figure({
        ...common,
        name: `${name}: not in startup.mjs's output`,
        unit: "",
        median: null,
        verdict: "error",
      }),
    );
  for (const [label, name] of [
    ["empty data directory", "npm start -> ready, empty data directory"],
    ["existing data directory", "npm start -> ready, existing data directory"],
  ] as const) {
    const m = found(new RegExp(`ready \\(${label}\\): ([\\d.]+) s, server RSS at ready (\\d+) MB`));
    if (!m) {
      missing(name);
      continue;
    }
    out.push(
      figure({ ...common, name, unit: "s", median: m[0]!, budget: 5 }),
      figure({ ...common, name: `server RSS at ready, ${label}`, unit: "MB", median: m[1]!, budget: 300 }),
    );
  }
  const settled = found(/server RSS after serving the login page: (\d+) MB/);
  if (settled)
    out.push(
      figure({
        ...common,
        name: "server RSS after serving the login page",
        unit: "MB",
        median: settled[0]!,
        budget: 300,
      }),
    );
  else missing("server RSS after serving the login page");
  const js = found(/login page JavaScript: (\d+) files, ([\d.]+) KB raw, ([\d.]+) KB gzip/);
  if (js)
    out.push(
      figure({
        ...common,
        name: "JavaScript of the login page (gzip)",
        unit: "KB",
        median: js[2]!,
        note: `${js[0]} files`,
      }),
    );
  else missing("JavaScript of the login page");
  notes.push("startup.mjs printed no --json line: its figures were read from its text output");
  return out;
}
