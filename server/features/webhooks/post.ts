import http from "node:http";
import https from "node:https";
import net from "node:net";
import { WEBHOOK_RESPONSE_EXCERPT_MAX, WEBHOOK_TIMEOUT_MS } from "../../../shared/domain/webhooks.ts";
import { guardedLookup, hostOf, isPrivateAddress, PrivateAddressError } from "./address-guard.ts";

/** One attempt's outcome, as the delivery log keeps it. */
export interface PostOutcome {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

/** How much of an answer is read: enough for the excerpt, never a whole large body. */
const READ_LIMIT = 16 * 1024;

/**
 * POSTs `body` to `url` once: no redirect followed (a 3xx is a failure that says so), at most
 * `timeoutMs` from start to the answer's end (or READ_LIMIT bytes of it), the address checked at
 * connection (address-guard.ts). Never throws: every failure is an outcome.
 */
export function postWebhook(opts: {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivate: boolean;
  timeoutMs?: number;
}): Promise<PostOutcome> {
  const started = performance.now();
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const done = (o: Omit<PostOutcome, "durationMs">): PostOutcome => ({
    ...o,
    durationMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(opts.url);
    } catch {
      resolve(done({ ok: false, statusCode: null, responseExcerpt: null, error: "The URL is not valid" }));
      return;
    }
    const host = hostOf(url);
    // An address literal is never looked up: check it here.
    if (net.isIP(host) && !opts.allowPrivate && isPrivateAddress(host)) {
      resolve(
        done({
          ok: false,
          statusCode: null,
          responseExcerpt: null,
          error: new PrivateAddressError(host).message,
        }),
      );
      return;
    }
    const client = url.protocol === "https:" ? https : http;
    let settled = false;
    const finish = (o: Omit<PostOutcome, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(o));
    };
    const request = client.request(
      url,
      {
        method: "POST",
        headers: {
          ...opts.headers,
          "content-length": Buffer.byteLength(opts.body),
          "user-agent": "Permitrack-Webhooks/1",
        },
        lookup: guardedLookup(opts.allowPrivate) as unknown as net.LookupFunction,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = () => {
          const code = response.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString("utf8").slice(0, WEBHOOK_RESPONSE_EXCERPT_MAX);
          const redirect = code >= 300 && code < 400;
          finish({
            ok: code >= 200 && code < 300,
            statusCode: code,
            responseExcerpt: text || null,
            error: redirect
              ? `Redirected to ${response.headers.location ?? "another address"}: redirects are not followed`
              : code >= 200 && code < 300
                ? null
                : `The receiver answered ${code}`,
          });
          response.destroy();
        };
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= READ_LIMIT) answer();
        });
        response.on("end", answer);
        response.on("error", answer);
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`No answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    request.on("error", (err: NodeJS.ErrnoException) => {
      const error =
        err instanceof PrivateAddressError || err.code === "EPRIVATE"
          ? err.message
          : err.code === "ENOTFOUND"
            ? `${host} could not be found`
            : err.code === "ECONNREFUSED"
              ? "Connection refused"
              : err.message || String(err);
      finish({ ok: false, statusCode: null, responseExcerpt: null, error });
    });
    request.end(opts.body);
  });
}
