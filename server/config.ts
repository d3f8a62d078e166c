import { z } from "zod";
import { isValidTimeZone } from "../shared/domain/dates.ts";

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");
const int = (def: number) => z.coerce.number().int().nonnegative().default(def);
const blankToUndefined = (v: unknown) => (v === "" ? undefined : v);

/** Every environment variable the server reads, with defaults that run on a laptop. */
const ConfigSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().default("127.0.0.1"),
  PORT: int(3000),
  PUBLIC_URL: z.preprocess(blankToUndefined, z.url().optional()),
  DATABASE_URL: z.preprocess(blankToUndefined, z.string().optional()),
  DATA_DIR: z.string().default("./data"),
  /** The built web app; default ./dist. */
  WEB_DIR: z.string().default("./dist"),
  SESSION_SECRET: z.preprocess(blankToUndefined, z.string().min(32).optional()),
  SMTP_URL: z.preprocess(blankToUndefined, z.string().optional()),
  MAIL_FROM: z.string().default("Permitrack <no-reply@permitrack.local>"),
  ADMIN_EMAIL: z.preprocess(blankToUndefined, z.email().optional()),
  ADMIN_PASSWORD: z.preprocess(blankToUndefined, z.string().min(8).optional()),
  DEFAULT_TIME_ZONE: z.string().refine(isValidTimeZone, "not a valid IANA time zone").default("UTC"),
  REMINDER_HOUR: z.coerce.number().int().min(0).max(23).default(7),
  SCHEDULER: z.enum(["on", "off"]).default("on"),
  UPLOAD_MAX_BYTES: int(25 * 1024 * 1024),
  LOGO_MAX_BYTES: int(2 * 1024 * 1024),
  SIGNIN_IP_LIMIT: int(30),
  SIGNIN_ACCOUNT_LIMIT: int(10),
  SIGNIN_WINDOW_SECONDS: int(15 * 60),
  API_RATE_LIMIT: int(600),
  /** Requests per minute per API key (issue 30). */
  API_KEY_RATE_LIMIT: int(600),
  /** Unknown, revoked or expired API keys per address per minute before 429 (issue 30). */
  API_KEY_MISS_LIMIT: int(30),
  /**
   * A document request's link (issue 27), per address per SIGNIN_WINDOW_SECONDS: every request to a
   * link route, and the unknown tokens among them (guessing), counted in the database.
   */
  REQUEST_LINK_IP_LIMIT: int(300),
  REQUEST_LINK_MISS_LIMIT: int(20),
  TRUST_PROXY: bool,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * Object storage (docs/OPERATIONS.md, "File storage"): S3_BUCKET set = new files go to that bucket
   * of any S3-compatible store; unset = the local folder DATA_DIR/files. S3_ENDPOINT for a store
   * other than AWS (R2, Garage, SeaweedFS, Ceph...); the keys may also come from the AWS SDK's own
   * chain (AWS_* variables, an instance role) when both are unset.
   */
  S3_BUCKET: z.preprocess(blankToUndefined, z.string().optional()),
  S3_ENDPOINT: z.preprocess(blankToUndefined, z.url().optional()),
  S3_REGION: z.preprocess(blankToUndefined, z.string().default("us-east-1")),
  S3_ACCESS_KEY_ID: z.preprocess(blankToUndefined, z.string().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(blankToUndefined, z.string().optional()),
  /** `true` for most self-hosted stores: http://host/bucket/key rather than http://bucket.host/key. */
  S3_FORCE_PATH_STYLE: bool,
  /** Set: a backup every night into this folder, once across every node (issue 26). */
  BACKUP_DIR: z.preprocess(blankToUndefined, z.string().optional()),
  /** The hour (UTC) the nightly backup starts, at half past. */
  BACKUP_HOUR: z.coerce.number().int().min(0).max(23).default(2),
  BACKUP_KEEP_DAILY: z.coerce.number().int().min(1).default(7),
  BACKUP_KEEP_WEEKLY: z.coerce.number().int().min(0).default(4),
  /**
   * The document reader (issue 28): reads uploaded PDFs and images in the background (the text
   * layer, OCR) and suggests fields. `off` starts no reader (tests drive it by hand). At most
   * DOCUMENT_MAX_PAGES pages and DOCUMENT_READ_TIMEOUT_MS per document; past a bound, the pages
   * read so far and a notice.
   */
  DOCUMENT_READER: z.enum(["on", "off"]).default("on"),
  DOCUMENT_MAX_PAGES: z.coerce.number().int().min(1).max(1000).default(20),
  DOCUMENT_READ_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  /**
   * Webhooks (issue 30): the app's dispatcher delivers due deliveries every WEBHOOK_POLL_MS and right
   * after a request that recorded an event (`off`: tests drive it by hand). WEBHOOKS_ALLOW_PRIVATE
   * lets endpoints reach loopback, private and link-local addresses (tests; a receiver on the same
   * network); otherwise they are refused when saved and at every attempt.
   */
  WEBHOOK_DISPATCH: z.enum(["on", "off"]).default("on"),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(100).default(2_000),
  WEBHOOKS_ALLOW_PRIVATE: bool,
  /** Set: GET /metrics answers (Prometheus text) to `Authorization: Bearer <this>`; unset: 404. */
  METRICS_TOKEN: z.preprocess(blankToUndefined, z.string().min(16).optional()),
});

export type Config = z.infer<typeof ConfigSchema> & { publicUrl: string };

/** Parses the environment once; throws a readable message naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  // On PostgreSQL any number of instances may serve one database: sessions and the links that work
  // without sign-in must verify on all of them, so none may sign with a secret of its own making.
  if (c.NODE_ENV === "production" && c.DATABASE_URL && !c.SESSION_SECRET)
    throw new Error(
      "Invalid configuration:\n  SESSION_SECRET: required in production on PostgreSQL (DATABASE_URL), the same on every instance; " +
        "it signs sessions and the reminder e-mails' links (e.g. openssl rand -hex 32)",
    );
  if (!c.S3_ACCESS_KEY_ID !== !c.S3_SECRET_ACCESS_KEY)
    throw new Error(
      "Invalid configuration:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither (neither: the AWS SDK's own credentials chain)",
    );
  return { ...c, publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, "") };
}
