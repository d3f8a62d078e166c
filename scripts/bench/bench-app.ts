/** The app in this process for a benchmark: its configuration, a free port, signing in, timed requests. */
import net from "node:net";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import { buildApp } from "../../server/app.ts";
import { loadConfig, type Config } from "../../server/config.ts";
import type { Database } from "../../server/db/client.ts";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import { SESSION_SECRET } from "./lib.ts";

/** The server's configuration for a benchmark: production mode, no scheduler, no rate limits in the way. */
export function benchConfig(dataDir: string, publicUrl?: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    SCHEDULER: "off",
    SESSION_SECRET,
    API_RATE_LIMIT: "1000000",
    SIGNIN_IP_LIMIT: "1000000",
    SIGNIN_ACCOUNT_LIMIT: "1000000",
    PUBLIC_URL: publicUrl,
    ...env,
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export interface RunningApp {
  app: FastifyInstance;
  base: string;
  close(): Promise<void>;
}

/**
 * buildApp() over `database`, listening on 127.0.0.1. `logger` as Fastify takes it (none by default;
 * the API benchmark passes production's level with the lines going nowhere).
 */
export async function startApp(
  database: Database,
  o: { dataDir: string; webDir?: string; logger?: FastifyServerOptions["logger"] },
): Promise<RunningApp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await buildApp({
    config: benchConfig(o.dataDir, base),
    database,
    webDir: o.webDir ?? path.join(o.dataDir, "no-web-app"),
    logger: o.logger,
  });
  await app.listen({ host: "127.0.0.1", port });
  return { app, base, close: () => app.close() };
}

/** Signs in over HTTP (a base URL) or through app.inject; returns the Cookie header to send. */
export async function signIn(
  target: string | FastifyInstance,
  email: string,
  password: string,
): Promise<string> {
  const headers = { "content-type": "application/json", [CSRF_HEADER]: CSRF_HEADER_VALUE };
  if (typeof target !== "string") {
    const res = await target.inject({
      method: "POST",
      url: "/api/auth/sign-in",
      headers,
      payload: { email, password },
    });
    if (res.statusCode !== 200) throw new Error(`sign-in as ${email} failed: ${res.statusCode} ${res.body}`);
    return res.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  }
  const res = await fetch(`${target}/api/auth/sign-in`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${email} failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Times `requests` GETs through app.inject (no network) after `warmup` untimed ones; each must answer 200. */
export async function timeInjected(
  app: FastifyInstance,
  url: string,
  cookie: string,
  o: { warmup: number; requests: number },
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < o.warmup + o.requests; i++) {
    const t = performance.now();
    const res = await app.inject({ method: "GET", url, headers: { cookie } });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    if (i >= o.warmup) samples.push(performance.now() - t);
  }
  return samples;
}
