/**
 * Where the server's time goes under load (performance issue, part 3): the real server as a child
 * process with `--cpu-prof`, the list's first page under 50 keep-alive clients for SECONDS, then a
 * graceful stop (SIGTERM: main.ts closes and exits, and Node writes the profile on that exit). The
 * .cpuprofile stays in bench/results/profile/ (open it in Chrome DevTools' Performance panel); the
 * summary, written to bench/results/profile.txt and printed, covers the samples taken while the
 * load ran (V8's sample clock and process.hrtime are both CLOCK_MONOTONIC on Linux):
 *   - the top 25 functions by self time;
 *   - self time by where the code lives: node_modules/<package>, our server/ and shared/ folders,
 *     Node's internals, V8 builtins and native code, the garbage collector, idle;
 *   - time by package including what it calls (a sample counts once for every package on its stack):
 *     how much of the time is under the serializer, zod (validation), pino (logging), pg, drizzle...
 *
 * Run: npm run bench -- --profile (on the bench data set), or by itself:
 *   npx tsx scripts/bench/profile.ts [--db=pg|pglite] [--quick] [--seconds=N]   (generates its own data)
 *   npx tsx scripts/bench/profile.ts --analyze=path/to/file.cpuprofile             (only the summary)
 */
import fs from "node:fs";
import path from "node:path";
import { signIn } from "./bench-app.ts";
import { createBenchDatabase, type BenchDatabase } from "./bench-database.ts";
import { arg, dbKinds, dbLabel, figure, hasFlag, isMain, root, type Figure } from "./lib.ts";
import { builtWebDir } from "./processes.ts";
import { ServerChild } from "./server-child.ts";
import { BENCH, generatePermitsData, QUICK_SCALE } from "./permits-data.ts";
import { CONNECTIONS, loadTest } from "./throughput.ts";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const fileUrlRoot = `file://${root}/`;

/** Where a frame's code lives: a package, a folder of ours, Node, V8, or the profiler's pseudo-frames. */
export function placeOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === "(garbage collector)") return "(garbage collector)";
    if (functionName === "(idle)") return "(idle)";
    if (functionName === "(program)") return "(program: native code outside JS)";
    if (functionName === "(root)") return "(root)";
    return "(V8 builtins and native functions)";
  }
  if (url.startsWith("node:")) return "node internals";
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const [first, second] = url.slice(modules + "/node_modules/".length).split("/");
    return `node_modules/${first?.startsWith("@") ? `${first}/${second}` : first}`;
  }
  if (url.startsWith(fileUrlRoot)) {
    const parts = url.slice(fileUrlRoot.length).split("/");
    if (parts[0] === "server" && parts[1] === "features") return `server/features/${parts[2]}`;
    if (parts.length > 2) return `${parts[0]}/${parts[1]}`;
    return parts.join("/");
  }
  return url;
}

const inFastify = (f: CallFrame, file: string, fn: string) =>
  f.functionName === fn && f.url.includes(`/node_modules/fastify/lib/${file}`);

/**
 * The questions of the issue (serialization, validation of responses, logging, cookies...), each a
 * test of one stack, innermost frame first: a sample counts for every concern its stack matches.
 */
const CONCERNS: [string, (stack: CallFrame[], places: string[]) => boolean][] = [
  [
    "response serialization in all (fastify's serialize: zod check + JSON.stringify)",
    (stack) => stack.some((f) => inFastify(f, "reply.js", "serialize")),
  ],
  [
    "  of which validation of responses (zod under serialize)",
    (stack, places) =>
      stack.some((f) => inFastify(f, "reply.js", "serialize")) && places.includes("node_modules/zod"),
  ],
  [
    "validation of requests (fastify's validate: params, query, body)",
    (stack) => stack.some((f) => inFastify(f, "validation.js", "validate")),
  ],
  [
    "logging (pino, its serializers, sonic-boom)",
    (_, places) =>
      places.some((p) => /^node_modules\/(pino|pino-std-serializers|sonic-boom|@pinojs\/.*)$/.test(p)),
  ],
  [
    "cookies and the session (cookie parsing, signature check, the session query's building)",
    (stack, places) =>
      places.includes("node_modules/cookie") ||
      places.includes("node_modules/@fastify/cookie") ||
      stack.some((f) => /\/server\/auth\/(session|cookies|plugin)\.ts$/.test(f.url)),
  ],
  [
    "security headers (helmet, or the headers it computed once: server/http/security-headers.ts)",
    (stack, places) =>
      places.some((p) => /helmet$/.test(p)) || stack.some((f) => /security-headers\.(ts|mjs)$/.test(f.url)),
  ],
  ["rate limit (@fastify/rate-limit)", (_, places) => places.includes("node_modules/@fastify/rate-limit")],
  [
    "query building and row mapping (drizzle-orm)",
    (_, places) => places.includes("node_modules/drizzle-orm"),
  ],
  [
    "PostgreSQL driver (pg, pg-pool, pg-protocol, pg-types)",
    (_, places) => places.some((p) => /^node_modules\/pg(-|$)/.test(p)),
  ],
  [
    "PGlite (the embedded database, WASM)",
    (_, places) => places.includes("node_modules/@electric-sql/pglite"),
  ],
  [
    "our code's own frames (server/, shared/)",
    (stack) => {
      const own = stack[0]?.url ?? "";
      return own.startsWith(`${fileUrlRoot}server/`) || own.startsWith(`${fileUrlRoot}shared/`);
    },
  ],
  ["socket writes (writev)", (stack) => !stack[0]?.url && stack[0]?.functionName === "writev"],
  ["garbage collector", (stack) => stack[0]?.functionName === "(garbage collector)"],
];

const frameName = (f: CallFrame) =>
  `${f.functionName || "(anonymous)"}  ${
    f.url ? `${f.url.replace(fileUrlRoot, "").replace(/^.*\/node_modules\//, "")}:${f.lineNumber + 1}` : ""
  }`.trim();

/**
 * The summary of a profile: top functions by self time, self time by place, inclusive time by place.
 * `window`: only samples taken between these two timestamps (µs, the profile's clock) count.
 */
export function summarizeProfile(
  profile: CpuProfile,
  window?: { from: number; to: number },
  top = 25,
): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // Sample i lasts until the next one (as DevTools counts).
  const times: number[] = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) times.push((t += d));
  const inWindow = (ts: number) => !window || (ts >= window.from && ts <= window.to);
  const windowed = !!window && times.some((ts) => inWindow(ts));

  const selfByNode = new Map<number, number>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    if (windowed && !inWindow(times[i]!)) continue;
    const duration = (times[i + 1] ?? profile.endTime) - times[i]!;
    const id = profile.samples[i]!;
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + duration);
    total += duration;
  }

  const selfByFunction = new Map<string, { name: string; place: string; us: number }>();
  const selfByPlace = new Map<string, number>();
  const inclusiveByPlace = new Map<string, number>();
  const byConcern = new Map<string, number>();
  for (const [id, us] of selfByNode) {
    const node = byId.get(id)!;
    const key = `${node.callFrame.functionName}|${node.callFrame.url}|${node.callFrame.lineNumber}|${node.callFrame.columnNumber}`;
    const place = placeOf(node.callFrame);
    const entry = selfByFunction.get(key) ?? { name: frameName(node.callFrame), place, us: 0 };
    entry.us += us;
    selfByFunction.set(key, entry);
    selfByPlace.set(place, (selfByPlace.get(place) ?? 0) + us);
    // Every place on the stack once.
    const stack: CallFrame[] = [];
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n))
      stack.push(byId.get(n)!.callFrame);
    const places = [...new Set(stack.map(placeOf))].filter((p) => p !== "(root)");
    for (const p of places) inclusiveByPlace.set(p, (inclusiveByPlace.get(p) ?? 0) + us);
    for (const [concern, matches] of CONCERNS)
      if (matches(stack, places)) byConcern.set(concern, (byConcern.get(concern) ?? 0) + us);
  }

  const idle = selfByPlace.get("(idle)") ?? 0;
  const busy = total - idle;
  const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
  const pct = (us: number, of: number) => `${((100 * us) / of).toFixed(1).padStart(5)} %`;
  const lines: string[] = [];
  lines.push(
    `${windowed ? "Samples while the load ran" : "All samples"}: ${(total / 1e6).toFixed(1)} s, of which idle ${(idle / 1e6).toFixed(1)} s; ` +
      `busy ${(busy / 1e6).toFixed(1)} s (percentages below are of busy time).`,
  );
  lines.push("", `Top ${top} functions by self time`);
  const functions = [...selfByFunction.values()]
    .filter((f) => f.place !== "(idle)")
    .sort((a, b) => b.us - a.us);
  for (const f of functions.slice(0, top))
    lines.push(`  ${ms(f.us)} ${pct(f.us, busy)}  ${f.name}   [${f.place}]`);
  lines.push("", "Self time by place (package, our folder, Node, V8, GC)");
  for (const [place, us] of [...selfByPlace].filter(([p]) => p !== "(idle)").sort((a, b) => b[1] - a[1]))
    if (us / busy >= 0.002) lines.push(`  ${ms(us)} ${pct(us, busy)}  ${place}`);
  lines.push(
    "",
    "Time by place including what it calls (a sample counts once for each place on its stack; Node's",
    "internals and V8's builtins, at the bottom of nearly every stack, are left out)",
  );
  const bottom = new Set(["(idle)", "node internals", "(V8 builtins and native functions)"]);
  for (const [place, us] of [...inclusiveByPlace].filter(([p]) => !bottom.has(p)).sort((a, b) => b[1] - a[1]))
    if (us / busy >= 0.01) lines.push(`  ${ms(us)} ${pct(us, busy)}  ${place}`);
  lines.push(
    "",
    "By concern (synchronous stacks only: work after an await is counted where it resumes; concerns overlap)",
  );
  for (const [concern] of CONCERNS) {
    const us = byConcern.get(concern) ?? 0;
    lines.push(`  ${ms(us)} ${pct(us, busy)}  ${concern}`);
  }
  return lines.join("\n");
}

/** Microseconds on CLOCK_MONOTONIC, the clock V8's profiler stamps its samples with on Linux. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Profiles a server child over `bench`'s data (which must be suspended: on PGlite the child opens
 * the directory) under the list's load; writes the profile and its summary into `outDir`.
 */
export async function profileServer(
  bench: BenchDatabase,
  o: { webDir: string; outDir: string; seconds: number; warmupSeconds: number; log?: (l: string) => void },
): Promise<Figure[]> {
  const log = o.log ?? console.log;
  const profileDir = path.join(o.outDir, "profile");
  fs.mkdirSync(profileDir, { recursive: true });
  for (const f of fs.readdirSync(profileDir))
    if (f.endsWith(".cpuprofile")) fs.rmSync(path.join(profileDir, f));
  const server = await ServerChild.start({
    bench,
    webDir: o.webDir,
    nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`],
  });
  let window: { from: number; to: number };
  let rps: number;
  try {
    const cookie = await signIn(server.base, BENCH.users.admin, BENCH.password);
    await loadTest(server.base, "/api/permits", cookie, { seconds: o.warmupSeconds });
    const from = monotonicUs();
    const r = await loadTest(server.base, "/api/permits", cookie, { seconds: o.seconds });
    window = { from, to: monotonicUs() };
    rps = r.rps;
    log(
      `  under --cpu-prof: ${r.rps.toFixed(0)} requests/s on GET /api/permits, p95 ${r.latency.p95.toFixed(1)} ms (${r.failed} failed)`,
    );
  } finally {
    if (!(await server.stop())) log("  the server did not stop by itself: no profile written");
  }
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread (1 is tsx's loader).
  const file = fs
    .readdirSync(profileDir)
    .filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))
    .map((f) => path.join(profileDir, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  if (!file) throw new Error(`no .cpuprofile in ${profileDir}:\n${server.logTail()}`);
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const text =
    `CPU profile of the server (${dbLabel(bench.kind)}, NODE_ENV=production, LOG_LEVEL=info) under ${CONNECTIONS} ` +
    `clients asking for GET /api/permits (the first page, ${BENCH.users.admin}) for ${o.seconds} s, ` +
    `${new Date().toISOString()}\nProfile: ${path.relative(root, file)}\n\n${summarizeProfile(profile, window)}\n`;
  const summaryFile = path.join(o.outDir, "profile.txt");
  fs.writeFileSync(summaryFile, text);
  log(text.replace(/^/gm, "  "));
  log(`  written: ${path.relative(process.cwd(), summaryFile)}`);
  return [
    figure({
      section: "profile",
      db: bench.kind,
      name: "GET /api/permits (first page) under --cpu-prof, requests/s",
      unit: "req/s",
      median: rps,
      note: path.relative(root, summaryFile),
    }),
  ];
}

if (isMain(import.meta.url)) {
  const analyze = arg("analyze");
  if (analyze) {
    console.log(summarizeProfile(JSON.parse(fs.readFileSync(analyze, "utf8")) as CpuProfile));
  } else {
    const quick = hasFlag("quick");
    const webDir = await builtWebDir();
    for (const kind of dbKinds(["pg"])) {
      console.log(`\n${dbLabel(kind)}`);
      const bench = await createBenchDatabase(kind, "bench_profile");
      try {
        await generatePermitsData(bench.database, console.log, quick ? QUICK_SCALE : undefined);
        await bench.suspend();
        await profileServer(bench, {
          webDir,
          outDir: path.join(root, "bench", "results"),
          seconds: Number(arg("seconds") ?? (quick ? 3 : 10)),
          warmupSeconds: quick ? 1 : 2,
        });
      } finally {
        await bench.dispose();
      }
    }
  }
}
