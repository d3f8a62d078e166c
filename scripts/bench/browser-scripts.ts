/** The JavaScript a page loads: the first visit's files (and when each arrived), and the whole app's. */
import zlib from "node:zlib";
import type { BrowserContext } from "playwright-core";
import { settle, WAIT_MS, type BenchWindow } from "./browser-page.ts";

interface ScriptFile {
  url: string;
  raw: number;
  gzip: number;
  /** The server's content-encoding, if it compressed the response. */
  encoding?: string;
  beforeFirstRows: boolean;
}

const gzipSize = (body: Buffer) => zlib.gzipSync(body, { level: 9 }).length;
const isScript = (url: string, contentType: string | undefined) =>
  /javascript/.test(contentType ?? "") || /\.m?js(\?|$)/.test(new URL(url).pathname);

/**
 * The first visit, in a fresh context (empty HTTP cache) carrying the session: the time to the first
 * rows, and every JavaScript file the page loads until the network is idle.
 */
export async function coldVisit(context: BrowserContext, base: string) {
  const bodies: Promise<Omit<ScriptFile, "beforeFirstRows"> | null>[] = [];
  const page0 = context.pages()[0] ?? (await context.newPage());
  page0.on("response", (res) => {
    if (!isScript(res.url(), res.headers()["content-type"])) return;
    bodies.push(
      res
        .body()
        .then((body) => ({
          url: res.url(),
          raw: body.length,
          gzip: gzipSize(body),
          encoding: res.headers()["content-encoding"],
        }))
        .catch(() => null),
    );
  });
  await page0.goto(`${base}/permits`, { waitUntil: "commit" });
  const handle = await page0.waitForFunction(() => (window as BenchWindow).__benchRowPainted, undefined, {
    timeout: WAIT_MS,
  });
  const ms = (await handle.jsonValue()) as number;
  await settle(page0);
  const ends = await page0.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((e) => ({ url: e.name, end: (e as PerformanceResourceTiming).responseEnd })),
  );
  const firstRowAt = await page0.evaluate(
    () => (window as { __benchRowInDom?: number }).__benchRowInDom ?? 0,
  );
  const files = (await Promise.all(bodies))
    .filter((f): f is NonNullable<typeof f> => f !== null)
    .map((f) => ({
      ...f,
      beforeFirstRows: (ends.find((e) => e.url === f.url)?.end ?? Infinity) <= firstRowAt,
    }));
  await page0.close();
  return { ms, files };
}

/** Every JavaScript chunk reachable from the entry (static imports, dynamic imports, preload lists). */
export async function allAppScripts(
  base: string,
  cookie: string,
  seeds: string[],
): Promise<Omit<ScriptFile, "beforeFirstRows">[]> {
  const seen = new Map<string, Omit<ScriptFile, "beforeFirstRows">>();
  const queue = [...seeds];
  while (queue.length) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    const res = await fetch(url, { headers: { cookie } });
    // A string that only looked like a chunk's name (unknown paths answer the app's index.html).
    if (!res.ok || !isScript(url, res.headers.get("content-type") ?? "text/html")) {
      await res.body?.cancel();
      continue;
    }
    const body = Buffer.from(await res.arrayBuffer());
    seen.set(url, { url, raw: body.length, gzip: gzipSize(body) });
    // Chunks name each other "./x.js" (relative to /assets/) or "assets/x.js" (relative to the base).
    for (const m of body.toString("utf8").matchAll(/["'`](?:\.\/|\/?assets\/)([\w$.-]+\.js)["'`]/g)) {
      const next = new URL(`/assets/${m[1]}`, base).toString();
      if (!seen.has(next)) queue.push(next);
    }
  }
  return [...seen.values()];
}
