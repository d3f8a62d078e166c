import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance, InjectOptions } from "fastify";
import type { Response as InjectResponse } from "light-my-request";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import type { Database, Db } from "../db/client.ts";
import type { Mailer } from "../mail/mailer.ts";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import { openTestDatabase } from "./database.ts";
import { factories, type Factories } from "./factories.ts";

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
  /** Signs in through the real sign-in route and returns a client carrying the session cookie. */
  signIn(user: { email: string; password: string }): Promise<ApiClient>;
  close(): Promise<void>;
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

/** Builds the real app over a fresh migrated database (PGlite, or PostgreSQL when TEST_DB=pg). */
export async function createTestContext(
  env: Record<string, string> = {},
  opts: { mailer?: Mailer } = {},
): Promise<TestContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-test-"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
    PUBLIC_URL: "http://localhost:3000",
    SCHEDULER: "off",
    ...env,
  });
  const database = await openTestDatabase();
  const app = await buildApp({ config, database, mailer: opts.mailer, webDir: path.join(dataDir, "no-web") });
  await app.ready();
  return {
    app,
    database,
    db: database.db,
    make: factories(database.db),
    dataDir,
    anonymous: client(app, ""),
    async signIn(user) {
      const res = await app.inject({
        method: "POST",
        url: "/api/auth/sign-in",
        headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
        payload: { email: user.email, password: user.password },
      });
      if (res.statusCode !== 200)
        throw new Error(`sign-in failed for ${user.email}: ${res.statusCode} ${res.body}`);
      const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
      return client(app, cookie);
    },
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Registers beforeAll/afterAll for a test file and returns the context, filled in before the tests run. */
export function useTestContext(
  env: Record<string, string> = {},
  opts: { mailer?: Mailer } = {},
): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    Object.assign(ctx, await createTestContext(env, opts));
  });
  afterAll(async () => {
    await ctx.close?.();
  });
  return ctx;
}
