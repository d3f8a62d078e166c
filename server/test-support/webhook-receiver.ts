import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request a receiver got. */
export interface ReceivedHook {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** What the receiver answers a request with: a status and body, or "hang" (never answers). */
export type HookAnswer = { status: number; body?: string; headers?: Record<string, string> } | "hang";

export interface WebhookReceiver {
  /** http://127.0.0.1:PORT */
  origin: string;
  url(path?: string): string;
  received: ReceivedHook[];
  /** The answers of the next requests, in order; then `fallback` (200 "ok" unless set). */
  answerNext(...answers: HookAnswer[]): void;
  answerAll(answer: HookAnswer): void;
  /** Resolves once `n` requests have come in (rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records every request (tests of webhooks, issue 30). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const queue: HookAnswer[] = [];
  let fallback: HookAnswer = { status: 200, body: "ok" };
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      received.push({
        path: req.url ?? "/",
        headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      });
      const answer = queue.shift() ?? fallback;
      if (answer === "hang") {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { "content-type": "text/plain", ...(answer.headers ?? {}) });
      res.end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path = "/hook") => `${origin}${path}`,
    received,
    answerNext: (...answers) => queue.push(...answers),
    answerAll: (answer) => {
      queue.length = 0;
      fallback = answer;
    },
    async waitFor(n, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${received.length} requests, not ${n}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return received.slice(0, n);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
