import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import "../shared/schemas/messages.ts"; // field error wording where a schema names none
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import multipart from "@fastify/multipart";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform, validatorCompiler } from "fastify-type-provider-zod";
import { sql } from "drizzle-orm";
import { APP_VERSION } from "../shared/domain/constants.ts";
import type { Config } from "./config.ts";
import type { Database, Db } from "./db/client.ts";
import { createAuth, type Auth } from "./auth/auth.ts";
import { createLinkSigner, type LinkSigner } from "./auth/link-signer.ts";
import { rateLimitKeyOf } from "./auth/api-key-auth.ts";
import { authPlugin, isApiRoute } from "./auth/plugin.ts";
import { SignInLimiter } from "./auth/rate-limit.ts";
import { registerErrorHandler } from "./errors.ts";
import { registerFeatures } from "./features/index.ts";
import { inputGuard } from "./http/input-guard.ts";
import { LinkTokenPaths } from "./http/link-tokens.ts";
import { createMetrics, registerMetrics, type Metrics } from "./http/metrics.ts";
import { OneLinePerRequest, requestLogOptions } from "./http/request-log.ts";
import { pageNonce, securityHeaders } from "./http/security-headers.ts";
import { responseSerializer } from "./http/serializer.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { createStorage, type Storage } from "./storage/storage.ts";
import { startDocumentReader } from "./features/documents/index.ts";
import { startWebhookDispatcher } from "./features/webhooks/index.ts";

/** Everything a route needs, built once per app. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  auth: Auth;
  limiter: SignInLimiter;
  storage: Storage;
  mailer: Mailer;
  /** Signs and checks the links that work without sign-in (a reminder's 'Acknowledge'), bound to the app secret. */
  links: LinkSigner;
  /** Secret that local CLI commands present to reach the running server (set by main.ts). */
  controlToken?: string;
  /** What the scheduler and features record for GET /metrics (no-ops unless METRICS_TOKEN is set). */
  metrics: Metrics;
}

declare module "fastify" {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export interface BuildOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions["logger"];
  mailer?: Mailer;
  /** Folder of the built web app; defaults to ./dist. Missing: the API still works. */
  webDir?: string;
}

/** The session secret: SESSION_SECRET, else one generated once and kept in DATA_DIR. */
export function sessionSecret(config: Config): string {
  if (config.SESSION_SECRET) return config.SESSION_SECRET;
  const file = path.join(path.resolve(config.DATA_DIR), "session-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(32).toString("hex");
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

/** How long /readyz waits for the database before it answers 503. */
const READYZ_TIMEOUT_MS = 2000;

/** Builds the whole app; main.ts listens on it and tests call `inject` on it. */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  // Link tokens (routes that declare `linkToken`, the web app's link pages) never reach the log.
  const linkTokens = new LinkTokenPaths();
  const app = Fastify({
    logger: requestLogOptions(opts.logger, linkTokens),
    logController: new OneLinePerRequest(),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  });
  app.addHook("onRoute", linkTokens.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer(config.NODE_ENV !== "production"));

  const dataDir = path.resolve(config.DATA_DIR);
  const secret = sessionSecret(config);
  const metrics = await createMetrics(config.METRICS_TOKEN, database);
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    auth: createAuth(database.db, config, secret),
    links: createLinkSigner(secret),
    limiter: new SignInLimiter(database.db, {
      perIp: config.SIGNIN_IP_LIMIT,
      perAccount: config.SIGNIN_ACCOUNT_LIMIT,
      windowSeconds: config.SIGNIN_WINDOW_SECONDS,
    }),
    storage: await createStorage(config),
    mailer:
      opts.mailer ??
      createMailer({
        smtpUrl: config.SMTP_URL,
        from: config.MAIL_FROM,
        outboxDir: path.join(dataDir, "outbox"),
        log: app.log,
      }),
    metrics,
  };
  app.decorate("ctx", ctx);
  app.addHook("onClose", () => ctx.storage.close());

  // 1. External plugins
  await app.register(securityHeaders);
  await app.register(rateLimit, {
    // Issue 30: a request with an API key counts against its key (by the key's hash), not its address.
    keyGenerator: (req) => rateLimitKeyOf(req) ?? req.ip,
    max: (_req, key) => (key.startsWith("api-key:") ? config.API_KEY_RATE_LIMIT : config.API_RATE_LIMIT),
    timeWindow: "1 minute",
    // By the matched route, like the CSRF check: an encoded path reaches the same route and the same limit.
    allowList: (req) => !isApiRoute(req),
  });
  await app.register(multipart, { limits: { fileSize: config.UPLOAD_MAX_BYTES, files: 1, fields: 20 } });
  await app.register(swagger, {
    openapi: {
      info: { title: "Permitrack API", version: APP_VERSION },
      components: {
        securitySchemes: {
          session: { type: "apiKey", in: "cookie", name: "permitrack.session_token" },
          // Issue 30: `Authorization: Bearer ptk_...`, a company's API key (docs/SECURITY.md).
          apiKey: { type: "http", scheme: "bearer", bearerFormat: "ptk_ API key" },
        },
      },
      security: [{ session: [] }, { apiKey: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    staticCSP: true,
    // Swagger UI sets one inline style; allow inline styles on the docs page only (it shows no user data).
    transformStaticCSP: (header) => header.replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'"),
  });

  // 2. App plugins
  registerErrorHandler(app);
  await app.register(authPlugin);
  await app.register(inputGuard);

  // 3. Routes
  registerMetrics(app, metrics);
  app.get("/healthz", { config: { isPublic: true }, schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { config: { isPublic: true }, schema: { hide: true } }, async (_req, reply) => {
    // Bounded: a database that hangs must not hang the probe (load balancers wait on it).
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("readiness check timed out")), READYZ_TIMEOUT_MS);
    });
    try {
      await Promise.race([database.db.execute(sql`select 1`), timeout]);
      return { status: "ready" };
    } catch {
      return reply.status(503).header("retry-after", "5").send({ status: "unavailable" });
    } finally {
      clearTimeout(timer);
    }
  });
  await app.register(registerFeatures);
  // Issue 28: the document reader runs with the app (DOCUMENT_READER), whatever SCHEDULER says.
  startDocumentReader(app);
  // Issue 30: the webhook dispatcher likewise (WEBHOOK_DISPATCH).
  startWebhookDispatcher(app);
  await registerWeb(app, path.resolve(opts.webDir ?? "dist"));
  return app;
}

/** Serves the built SPA: hashed assets from disk, index.html with this response's CSP nonce. */
async function registerWeb(app: FastifyInstance, webDir: string) {
  const indexFile = path.join(webDir, "index.html");
  const hasWeb = fs.existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDir,
      index: false,
      wildcard: false,
      // The build's .br and .gz copies (scripts/lib/precompress.ts), as the browser accepts them.
      preCompressed: true,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header("cache-control", "public, max-age=31536000, immutable");
        }
      },
    });
  }
  const indexHtml = hasWeb ? fs.readFileSync(indexFile, "utf8") : null;
  app.setNotFoundHandler((request, reply) => {
    if (isApiRoute(request) || request.method !== "GET") {
      return reply.status(404).send({ code: "NOT_FOUND", message: "Not found." });
    }
    if (!indexHtml) {
      return reply.status(404).type("text/plain").send("The web app is not built: run `npm run build`.");
    }
    const nonce = pageNonce(reply);
    return reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .send(indexHtml.replaceAll("__CSP_NONCE__", nonce));
  });
}
