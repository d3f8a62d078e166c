/**
 * The party's page of a document request (/request/:token, issue 27) on a cold browser: a fresh
 * Chromium profile per run (empty cache, no service worker, no cookies), as a phone (390 × 844),
 * optionally throttled like a phone on a mobile network (--phone-network: 4× slower CPU, 9 Mbit/s
 * down, 1.5 Mbit/s up, 60 ms round trips, through the DevTools protocol).
 *
 *   npx tsx scripts/bench/request-link-paint.ts --url=http://127.0.0.1:3000/request/<token> [--runs=7] [--phone-network]
 *
 * Prints, median and p95 over the runs: first contentful paint (the browser's paint timing), the
 * request painted (its h1 holds the request's words, not "Loading...", and the next frame has been
 * painted: what the party came for), and the JavaScript the page fetched (files, KB on the wire: the
 * build's Brotli copies, scripts/lib/precompress.ts; and gzipped, as the other benchmarks count them).
 * Any link state works (open, submitted, approved, expired); opening it marks an open request Viewed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { arg, hasFlag, stats } from "./lib.ts";
import { chromiumPath } from "./processes.ts";

const INIT_SCRIPT = `
window.__name = (f) => f;
const seen = () => {
  const h1 = document.querySelector("h1");
  if (!h1 || /Loading/.test(h1.textContent || "")) return false;
  window.__requestInDom = performance.now();
  requestAnimationFrame(() => setTimeout(() => { window.__requestPainted = performance.now(); }, 0));
  return true;
};
new MutationObserver((_, o) => { if (seen()) o.disconnect(); }).observe(document, { subtree: true, childList: true });
`;

interface Run {
  fcp: number;
  painted: number;
  jsFiles: number;
  jsKb: number;
  /** The same scripts gzipped (what the other benchmarks count). */
  jsGzipKb: number;
}

async function once(url: string, phoneNetwork: boolean): Promise<Run> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "request-paint-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-sync",
    ],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.addInitScript(INIT_SCRIPT);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    if (phoneNetwork) {
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 60,
        downloadThroughput: (9 * 1024 * 1024) / 8,
        uploadThroughput: (1.5 * 1024 * 1024) / 8,
      });
    }
    const js = new Map<string, number>();
    const urls: string[] = [];
    cdp.on("Network.responseReceived", (e) => {
      if (e.type !== "Script") return;
      js.set(e.requestId, 0);
      urls.push(e.response.url);
    });
    cdp.on("Network.loadingFinished", (e) => {
      if (js.has(e.requestId)) js.set(e.requestId, e.encodedDataLength);
    });
    await page.goto(url, { waitUntil: "commit" });
    const painted = (await (
      await page.waitForFunction(
        () => (window as { __requestPainted?: number }).__requestPainted,
        undefined,
        {
          timeout: 60_000,
        },
      )
    ).jsonValue()) as number;
    const fcp = await page.evaluate(
      () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
    );
    await page.waitForLoadState("networkidle");
    const bytes = [...js.values()].reduce((a, b) => a + b, 0);
    let gzipped = 0;
    for (const u of urls) gzipped += gzipSync(Buffer.from(await (await fetch(u)).arrayBuffer())).length;
    return { fcp, painted, jsFiles: js.size, jsKb: bytes / 1024, jsGzipKb: gzipped / 1024 };
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

const url = arg("url");
if (!url) {
  console.error(
    "usage: npx tsx scripts/bench/request-link-paint.ts --url=<base>/request/<token> [--runs=7] [--phone-network]",
  );
  process.exit(2);
}
const runs = Number(arg("runs") ?? 7);
const phoneNetwork = hasFlag("phone-network");
const results: Run[] = [];
for (let i = 0; i < runs; i++) results.push(await once(url, phoneNetwork));
const show = (name: string, xs: number[], unit: string) => {
  const s = stats(xs);
  console.log(
    `${name.padEnd(34)} median ${s.median.toFixed(0).padStart(5)} ${unit}   p95 ${s.p95.toFixed(0).padStart(5)} ${unit}`,
  );
};
console.log(
  `/request/:token, cold browser, 390 × 844${phoneNetwork ? ", 4× CPU, 9 Mbit/s, 60 ms RTT" : ", unthrottled"}, ${runs} runs`,
);
show(
  "first contentful paint",
  results.map((r) => r.fcp),
  "ms",
);
show(
  "request painted (h1 with its words)",
  results.map((r) => r.painted),
  "ms",
);
show(
  "JavaScript files",
  results.map((r) => r.jsFiles),
  "",
);
show(
  "JavaScript on the wire",
  results.map((r) => r.jsKb),
  "KB",
);
show(
  "the same JavaScript gzipped",
  results.map((r) => r.jsGzipKb),
  "KB",
);
