import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance, InjectOptions } from "fastify";
import type { Response as InjectResponse } from "light-my-request";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { eq } from "drizzle-orm";
import { symmetricDecrypt } from "better-auth/crypto";
import type { Database, Db } from "../db/client.ts";
import { twoFactors, users } from "../db/schema.ts";
import type { Mailer } from "../mail/mailer.ts";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import { openTestDatabase } from "./database.ts";
import { startS3Server, type TestS3Server } from "./s3-server.ts";
import { factories, type Factories } from "./factories.ts";
import { hasUnusedTotpStep, unusedTotpCode } from "./totp.ts";
import { sessionTokenSignature } from "../auth/cookies.ts";

export interface ApiClient {
  cookie: string;
  request(opts: InjectOptions): Promise<InjectResponse>;
  get(url: string): Promise<InjectResponse>;
  post(url: string, body?: unknown): Promise<InjectResponse>;
  put(url: string, body?: unknown): Promise<InjectResponse>;
  patch(url: string, body?: unknown): Promise<InjectResponse>;
  delete(url: string): Promise<InjectResponse>;
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  db: Db;
  make: Factories;
  dataDir: string;
  /** A client without a session. */
  anonymous: ApiClient;
  /** A client sending this Cookie header (a browser between sign-in steps, say). */
  withCookie(cookie: string): ApiClient;
  /**
   * Signs in through the real sign-in route and returns a client carrying the session cookie. A
   * user enrolled in two-factor sign-in gets through the real code step: with `totpSecret` when
   * given, else the secret stored for the user (as the phone would have it).
   */
  signIn(user: { email: string; password: string; totpSecret?: string | null }): Promise<ApiClient>;
  close(): Promise<void>;
}

/** The Cookie header a browser would send after these Set-Cookies (cleared cookies left out). */
export function cookieHeaderOf(res: InjectResponse): string {
  return res.cookies
    .filter((c) => c.value !== "" && c.maxAge !== 0)
    .map((c) => `${c.name}=${c.value}`)
    .join("; ");
}

/** A user's TOTP secret as better-auth stores it (encrypted with the app secret). */
export async function storedTotpSecret(app: FastifyInstance, email: string): Promise<string> {
  const { db, auth } = app.ctx;
  const [row] = await db
    .select({ secret: twoFactors.secret })
    .from(twoFactors)
    .innerJoin(users, eq(users.id, twoFactors.userId))
    .where(eq(users.email, email.toLowerCase()));
  if (!row) throw new Error(`no two-factor secret stored for ${email}`);
  return symmetricDecrypt({ key: (await auth.$context).secretConfig, data: row.secret });
}

/** The last time step the server accepted for the user (each is accepted once), or null. */
export async function lastTotpStep(app: FastifyInstance, email: string): Promise<number | null> {
  const [row] = await app.ctx.db
    .select({ step: twoFactors.lastTotpStep })
    .from(twoFactors)
    .innerJoin(users, eq(users.id, twoFactors.userId))
    .where(eq(users.email, email.toLowerCase()));
  return row?.step ?? null;
}

/** A new session of the user as better-auth makes one after a verified code, as a Cookie header. */
async function sessionCookieFor(app: FastifyInstance, email: string): Promise<string> {
  const ctx = await app.ctx.auth.$context;
  const [user] = await app.ctx.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email.toLowerCase()));
  const session = await ctx.internalAdapter.createSession(user!.id, false);
  const signature = sessionTokenSignature(session.token, ctx.secret).toString("base64");
  return `${ctx.authCookies.sessionToken.name}=${encodeURIComponent(`${session.token}.${signature}`)}`;
}

function client(app: FastifyInstance, cookie: string): ApiClient {
  const request = (opts: InjectOptions) =>
    app.inject({
      ...opts,
      headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, ...(cookie ? { cookie } : {}), ...(opts.headers ?? {}) },
    });
  const withBody = (method: "POST" | "PUT" | "PATCH") => (url: string, body?: unknown) =>
    request({ method, url, ...(body === undefined ? {} : { payload: body as InjectOptions["payload"] }) });
  return {
    cookie,
    request,
    get: (url) => request({ method: "GET", url }),
    post: withBody("POST"),
    put: withBody("PUT"),
    patch: withBody("PATCH"),
    delete: (url) => request({ method: "DELETE", url }),
  };
}

export interface TestContextOptions {
  mailer?: Mailer;
  /** Where the app's log lines go (JSON, level info); none by default. */
  logStream?: NodeJS.WritableStream;
}

/** Builds the real app over a fresh migrated database (PGlite, or PostgreSQL when TEST_DB=pg). */
export async function createTestContext(
  env: Record<string, string> = {},
  opts: TestContextOptions = {},
): Promise<TestContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-test-"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
    PUBLIC_URL: "http://localhost:3000",
    SCHEDULER: "off",
    // The document reader runs when a test starts it (readDueDocuments) or turns it on.
    DOCUMENT_READER: "off",
    WEBHOOK_DISPATCH: "off",
    ...env,
  });
  const database = await openTestDatabase();
  const app = await buildApp({
    config,
    database,
    mailer: opts.mailer,
    webDir: path.join(dataDir, "no-web"),
    // Tests that read the log pass a stream: JSON lines at the default level, as in production.
    ...(opts.logStream ? { logger: { level: "info", stream: opts.logStream } } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    db: database.db,
    make: factories(database.db, app.ctx.auth),
    dataDir,
    anonymous: client(app, ""),
    withCookie: (cookie) => client(app, cookie),
    async signIn(user) {
      const res = await app.inject({
        method: "POST",
        url: "/api/auth/sign-in",
        headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
        payload: { email: user.email, password: user.password },
      });
      if (res.statusCode !== 200)
        throw new Error(`sign-in failed for ${user.email}: ${res.statusCode} ${res.body}`);
      if (!res.json().codeRequired) return client(app, cookieHeaderOf(res));
      const secret = user.totpSecret ?? (await storedTotpSecret(app, user.email));
      const last = await lastTotpStep(app, user.email);
      // Each code is accepted once (issue 23): a person gets at most two sign-ins a half-minute.
      // Suites that need more sessions of one person (the permission matrix asks for a fresh
      // super-admin per destructive route) get the session the code step would have made, rather
      // than wait up to 30 s; the password step above was real, and the code step is proven by
      // the two-factor suites, which never come through here.
      if (!hasUnusedTotpStep(last)) return client(app, await sessionCookieFor(app, user.email));
      const code = await app.inject({
        method: "POST",
        url: "/api/auth/sign-in/code",
        headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, cookie: cookieHeaderOf(res) },
        payload: { code: await unusedTotpCode(secret, last) },
      });
      if (code.statusCode !== 200)
        throw new Error(`code step failed for ${user.email}: ${code.statusCode} ${code.body}`);
      return client(app, cookieHeaderOf(code));
    },
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Registers beforeAll/afterAll for a test file and returns the context, filled in before the tests
 * run. `env` may be a function, read when the context is built (a server started by an earlier
 * beforeAll, such as useS3Server's, gives its address that way).
 */
export function useTestContext(
  env: Record<string, string> | (() => Record<string, string>) = {},
  opts: TestContextOptions = {},
): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    Object.assign(ctx, await createTestContext(typeof env === "function" ? env() : env, opts));
  });
  afterAll(async () => {
    await ctx.close?.();
  });
  return ctx;
}

/**
 * Registers beforeAll/afterAll: a fresh S3 server for the file (or the describe block), filled in
 * before the tests run (and before a useTestContext registered after it builds its app).
 */
export function useS3Server(opts: { bucket?: string } = {}): TestS3Server {
  const server = {} as TestS3Server;
  beforeAll(async () => {
    Object.assign(server, await startS3Server(opts));
  }, 60_000);
  afterAll(async () => {
    await server.stop?.();
  });
  return server;
}
