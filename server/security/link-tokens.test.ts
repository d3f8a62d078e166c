import diagnostics from "node:diagnostics_channel";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance, InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { rotateFeedToken } from "../features/calendar/calendar.service.ts";
import { signAcknowledgeToken } from "../features/reminders/index.ts";
import { makeDocumentRequest } from "../test-support/document-requests.ts";
import { multipart } from "../test-support/multipart.ts";
import { openTestDatabase } from "../test-support/database.ts";
import { factories } from "../test-support/factories.ts";

/**
 * Security finding 4: a link token (an e-mail's Acknowledge link, a calendar feed, and every link
 * route to come) is a credential in a URL; it must never reach a log line. The app is built as
 * main.ts builds it, logging JSON lines at the default level, here into memory.
 */

interface Route {
  method: string;
  url: string;
  config: Record<string, unknown>;
}

// Every route the app registers, with its config (the diagnostics channel fires inside Fastify()).
const routes: Route[] = [];
const channel = diagnostics.channel("fastify.initialization");
const onInit = (message: unknown) => {
  const { fastify } = message as { fastify: FastifyInstance };
  fastify.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method, url: route.url, config: { ...route.config } });
  });
};

const lines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    done();
  },
});
const logged = () => lines.map((l) => JSON.parse(l) as Record<string, unknown> & { msg?: string });
/** The "request completed" line of each request, by the URL it logged. */
const completed = () =>
  logged()
    .filter((l) => l.msg === "request completed")
    .map((l) => ({
      method: (l.req as { method: string }).method,
      url: (l.req as { url: string }).url,
      status: (l.res as { statusCode: number }).statusCode,
    }));

let app: FastifyInstance;
let database: Database;
let dataDir: string;
let ackToken: string;
let feedToken: string;
let requestToken: string;

const send = (opts: InjectOptions) =>
  app.inject({ ...opts, headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, ...(opts.headers ?? {}) } });

beforeAll(async () => {
  channel.subscribe(onInit);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-link-tokens-"));
  const webDir = path.join(dataDir, "web");
  fs.mkdirSync(webDir);
  fs.writeFileSync(path.join(webDir, "index.html"), '<!doctype html><script nonce="__CSP_NONCE__"></script>');
  // As in production: the configured level (the default, info), JSON lines to a stream.
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
    PUBLIC_URL: "http://localhost:3000",
    SCHEDULER: "off",
  });
  expect(config.LOG_LEVEL).toBe("info");
  database = await openTestDatabase();
  app = await buildApp({ config, database, webDir, logger: { level: config.LOG_LEVEL, stream: logStream } });
  channel.unsubscribe(onInit);
  // A link route a later feature might add, that fails: it declares its token once, like the real ones.
  app.get(
    "/api/test-links/:token/boom",
    { config: { isPublic: true, linkToken: "token" } },
    async (request) => {
      // What fastify's own "incoming request" line logs, were it switched on.
      request.log.info({ req: request }, "incoming request");
      throw new Error("link route failed");
    },
  );
  await app.ready();

  const make = factories(database.db, app.ctx.auth);
  const company = await make.company();
  const user = await make.user({ role: "company-user", companyId: company.id });
  const permit = await make.permit({ companyId: company.id, expirationDate: "2031-06-30" });
  ackToken = signAcknowledgeToken(app.ctx.links, {
    permitId: permit.id,
    recipientUserId: user.id,
    termNo: permit.termNo,
    dueOn: permit.expirationDate!,
  });
  feedToken = await rotateFeedToken(database.db, user.id);
  // A document request's link (issue 27), made as the feature makes one.
  requestToken = (
    await makeDocumentRequest({ app, db: database.db } as Parameters<typeof makeDocumentRequest>[0], permit)
  ).token;
});

afterAll(async () => {
  channel.unsubscribe(onInit);
  await app?.close();
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("link tokens in the request log (security finding 4)", () => {
  it("never logs an Acknowledge link's or a calendar feed's token, and still logs each request with the token masked", async () => {
    const unknownAck = `${ackToken.slice(0, -6)}zzzzzz`;
    const unknownFeed = "Q".repeat(43);
    const requests: [InjectOptions, string, number][] = [
      [{ method: "GET", url: `/api/acknowledgements/${ackToken}` }, "/api/acknowledgements/[redacted]", 200],
      [
        { method: "GET", url: `/api/acknowledgements/${unknownAck}` },
        "/api/acknowledgements/[redacted]",
        404,
      ],
      [
        { method: "POST", url: `/api/acknowledgements/${unknownAck}` },
        "/api/acknowledgements/[redacted]",
        404,
      ],
      [{ method: "POST", url: `/api/acknowledgements/${ackToken}` }, "/api/acknowledgements/[redacted]", 200],
      // The router decodes escapes: an escaped path reaches the same route, and is masked the same.
      [
        { method: "GET", url: `/api/acknowledgement%73/${ackToken}` },
        "/api/acknowledgement%73/[redacted]",
        200,
      ],
      // The web app's page of the link, served by the SPA fallback.
      [{ method: "GET", url: `/acknowledge/${ackToken}` }, "/acknowledge/[redacted]", 200],
      [
        { method: "GET", url: `/acknowledge/${unknownAck}?from=mail` },
        "/acknowledge/[redacted]?from=mail",
        200,
      ],
      [{ method: "GET", url: `/api/calendar/${feedToken}.ics` }, "/api/calendar/[redacted]", 200],
      [{ method: "HEAD", url: `/api/calendar/${feedToken}.ics` }, "/api/calendar/[redacted]", 200],
      [{ method: "GET", url: `/api/calendar/${unknownFeed}.ics` }, "/api/calendar/[redacted]", 404],
      // No route (an API path without a route asks for a session): the link path is still masked.
      [{ method: "GET", url: `/api/calendar/${feedToken}.ics/x` }, "/api/calendar/[redacted]/x", 401],
      // A token in the query string, on any path.
      [
        { method: "GET", url: `/login?token=${feedToken}&next=%2Fpermits` },
        "/login?token=[redacted]&next=%2Fpermits",
        200,
      ],
    ];
    const before = lines.length;
    for (const [opts, masked, status] of requests) {
      const res = await send(opts);
      expect(res.statusCode, `${opts.method} ${masked}`).toBe(status);
    }
    expect(lines.length).toBeGreaterThan(before);
    for (const line of lines) {
      for (const secret of [ackToken, unknownAck, feedToken, unknownFeed]) expect(line).not.toContain(secret);
    }
    const seen = completed();
    for (const [opts, masked, status] of requests) {
      expect(seen).toContainEqual({ method: opts.method, url: masked, status });
    }
  });

  it("never logs a document request link's token (issue 27): the API's routes, the upload, the web page", async () => {
    const unknown = `${requestToken.slice(0, -6)}zzzzzz`;
    const requests: [InjectOptions, string, number][] = [
      [{ method: "GET", url: `/api/request-links/${requestToken}` }, "/api/request-links/[redacted]", 200],
      [{ method: "GET", url: `/api/request-links/${unknown}` }, "/api/request-links/[redacted]", 404],
      [
        { method: "GET", url: `/api/request-links/${requestToken}/logo` },
        "/api/request-links/[redacted]/logo",
        404,
      ],
      [
        {
          method: "POST",
          url: `/api/request-links/${requestToken}/files`,
          ...multipart([
            { name: "file", filename: "a.pdf", contentType: "application/pdf", content: "%PDF" },
          ]),
        },
        "/api/request-links/[redacted]/files",
        201,
      ],
      [
        { method: "POST", url: `/api/request-links/${requestToken}/submit`, payload: { values: { x: "1" } } },
        "/api/request-links/[redacted]/submit",
        400,
      ],
      [
        { method: "POST", url: `/api/request-links/${requestToken}/submit`, payload: { values: {} } },
        "/api/request-links/[redacted]/submit",
        200,
      ],
      // Another case reaches no route (401 without a session), and is masked all the same.
      [{ method: "GET", url: `/api/Request-Links/${requestToken}` }, "/api/Request-Links/[redacted]", 401],
      [{ method: "GET", url: `/request/${requestToken}` }, "/request/[redacted]", 200],
      [{ method: "GET", url: `/request/${unknown}?from=mail` }, "/request/[redacted]?from=mail", 200],
    ];
    for (const [opts, masked, status] of requests) {
      const res = await send(opts);
      expect(res.statusCode, `${opts.method} ${masked} ${res.body.slice(0, 200)}`).toBe(status);
    }
    for (const line of lines)
      for (const secret of [requestToken, unknown]) expect(line).not.toContain(secret);
    const seen = completed();
    for (const [opts, masked, status] of requests)
      expect(seen).toContainEqual({ method: opts.method, url: masked, status });
  });

  it("masks the token of a failing link route in its error lines, and in fastify's own request line", async () => {
    const token = "a-future-link-token-0123456789abcdefghijkl";
    const res = await send({ method: "GET", url: `/api/test-links/${token}/boom` });
    expect(res.statusCode).toBe(500);
    for (const line of lines) expect(line).not.toContain(token);
    const mine = logged().filter((l) => JSON.stringify(l).includes("/api/test-links/"));
    expect(mine.map((l) => [l.msg, (l.req as { url: string }).url])).toEqual([
      ["incoming request", "/api/test-links/[redacted]/boom"],
      ["request completed", "/api/test-links/[redacted]/boom"],
    ]);
    expect(logged().some((l) => l.msg === "unhandled error" && l.level === 50)).toBe(true);
  });

  it("has every public route with a path parameter declare which parameter is its link token", () => {
    const undeclared = routes.filter(
      (r) => r.config.isPublic && r.url.includes(":") && typeof r.config.linkToken !== "string",
    );
    expect(undeclared.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    const declared = routes.filter(
      (r) => r.config.linkToken && r.method !== "HEAD" && !r.url.startsWith("/api/test-links/"),
    );
    expect(declared.map((r) => `${r.method} ${r.url} ${String(r.config.linkToken)}`).sort()).toEqual(
      [
        "GET /api/acknowledgements/:token token",
        "GET /api/calendar/:file file",
        "GET /api/request-links/:token token",
        "GET /api/request-links/:token/logo token",
        "POST /api/acknowledgements/:token token",
        "POST /api/request-links/:token/files token",
        "POST /api/request-links/:token/submit token",
        // Issue 30: the status link (no sign-in, read-only).
        "GET /api/status-links/:token token",
        "GET /api/status-links/:token/logo token",
        "GET /api/status-links/:token/packet.pdf token",
      ].sort(),
    );
  });
});
