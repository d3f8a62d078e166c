import path from "node:path";
import { parseArgs } from "node:util";
import { CONTROL_TOKEN_HEADER, CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import { isIsoDate } from "../../shared/domain/dates.ts";
import { RunReportSchema, type RunReminders, type RunReport } from "../../shared/schemas/reminders.ts";
import { sessionSecret } from "../app.ts";
import { createLinkSigner } from "../auth/link-signer.ts";
import { loadConfig, type Config } from "../config.ts";
import { openDatabase, readDataDirLock, type LockInfo } from "../db/client.ts";
import { createMailer } from "../mail/mailer.ts";
import { formatRunReport, runReminders } from "../features/reminders/index.ts";

/**
 * `npm run reminders [-- --dry-run] [--date YYYY-MM-DD]`: one reminders run by hand.
 *
 * Where it runs (DESIGN.md section 5): on PostgreSQL it opens the database itself, like any
 * other instance. On the embedded database only one process may open the data directory, so
 * when a live server holds it the command asks that server to run (over loopback, with the
 * control token from the lock file); otherwise it opens the directory itself, taking the lock.
 */

export type Target =
  | { kind: "postgres" }
  /** `base`: the running server's address (`npm run backup` asks it too). */
  | { kind: "server"; url: string; base: string; token: string }
  | { kind: "embedded" };

const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "localhost", "127.0.0.1", ""]);

/** Decides where the run happens from the configuration and the data directory's lock. */
export function chooseTarget(config: Pick<Config, "DATABASE_URL">, lock: LockInfo | null): Target {
  if (config.DATABASE_URL) return { kind: "postgres" };
  if (lock?.port && lock.controlToken) {
    const host = typeof lock.host === "string" && !WILDCARD_HOSTS.has(lock.host) ? lock.host : "127.0.0.1";
    const hostPart = host.includes(":") ? `[${host}]` : host;
    const base = `http://${hostPart}:${lock.port}`;
    return { kind: "server", url: `${base}/api/internal/reminders/run`, base, token: lock.controlToken };
  }
  return { kind: "embedded" };
}

/** Asks the running server to run; throws with the server's message when it refuses. */
export async function runOnServer(
  target: { url: string; token: string },
  body: RunReminders,
): Promise<RunReport> {
  const res = await fetch(target.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [CSRF_HEADER]: CSRF_HEADER_VALUE,
      [CONTROL_TOKEN_HEADER]: target.token,
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30 * 60_000),
  });
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message = (data as { message?: string } | null)?.message ?? res.statusText;
    throw new Error(`The running server refused the reminders run (${res.status}): ${message}`);
  }
  return RunReportSchema.parse(data);
}

/** Runs against a database this process opens (PostgreSQL, or the embedded one when no server holds it). */
async function runHere(config: Config, body: RunReminders): Promise<RunReport> {
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    outboxDir: path.join(path.resolve(config.DATA_DIR), "outbox"),
  });
  try {
    return await runReminders({
      db: database.db,
      mailer,
      publicUrl: config.publicUrl,
      links: createLinkSigner(sessionSecret(config)),
      reminderHour: config.REMINDER_HOUR,
      asOf: body.date,
      dryRun: body.dryRun,
    });
  } finally {
    mailer.close();
    await database.close();
  }
}

const USAGE = `Usage: npm run reminders [-- --dry-run] [--date YYYY-MM-DD]
  --dry-run          print what would be sent; record and send nothing
  --date YYYY-MM-DD  run as of that day in every company (default: each company's today)
  --now              run as of now (the default)`;

export function parseCliArgs(argv: string[]): RunReminders | { help: true } {
  const { values } = parseArgs({
    args: argv,
    options: {
      "dry-run": { type: "boolean", default: false },
      date: { type: "string" },
      now: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) return { help: true };
  if (values.date !== undefined && !isIsoDate(values.date))
    throw new Error(`--date must be a date YYYY-MM-DD, got "${values.date}"`);
  if (values.date !== undefined && values.now) throw new Error("--date and --now exclude each other");
  return { dryRun: values["dry-run"], ...(values.date ? { date: values.date } : {}) };
}

async function main() {
  const args = parseCliArgs(process.argv.slice(2));
  if ("help" in args) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  const target = chooseTarget(config, config.DATABASE_URL ? null : readDataDirLock(config.DATA_DIR));
  if (target.kind === "server")
    console.log(`A Permitrack server holds ${config.DATA_DIR}; asking it to run the reminders.`);
  const report = target.kind === "server" ? await runOnServer(target, args) : await runHere(config, args);
  console.log(formatRunReport(report));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
