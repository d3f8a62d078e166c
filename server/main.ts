import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { loadConfig } from "./config.ts";
import { acquireDataDirLock, DataDirLockedError, openDatabase } from "./db/client.ts";
import { migrateDatabase } from "./db/migrate.ts";
import { bufferedLogStream } from "./http/log-stream.ts";

/** Starts the server: open the database, migrate, seed the first admin, listen, schedule. */
async function main() {
  const started = Date.now();
  const config = loadConfig();
  const pretty = config.NODE_ENV !== "production" && process.stdout.isTTY;
  // JSON lines to stdout, written in batches (at most a second late, all of them on exit).
  const logStream = pretty ? undefined : bufferedLogStream();
  const logger = {
    level: config.LOG_LEVEL,
    ...(pretty
      ? {
          transport: {
            target: "pino-pretty",
            options: { translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname" },
          },
        }
      : { stream: logStream }),
  };

  // The embedded database is single-process: hold the data directory for the server's lifetime.
  const lock = config.DATABASE_URL ? null : acquireDataDirLock(config.DATA_DIR);
  // The app's modules load while the database opens (a new embedded one is made by a child process
  // meanwhile, decision 0015): they are imported here, not at the top, for that.
  const [database, { buildApp }, { ensureFirstSuperAdmin }, { startScheduler }] = await Promise.all([
    openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      lockHeld: true,
      onCreated: (dir, ms) =>
        console.log(`Created the embedded database at ${dir} (${(ms / 1000).toFixed(1)} s)`),
    }),
    import("./app.ts"),
    import("./setup/bootstrap.ts"),
    import("./jobs/scheduler.ts"),
  ]);
  await migrateDatabase(database);
  await ensureFirstSuperAdmin(database.db, config, (line) => console.log(line));

  const app = await buildApp({ config, database, logger, webDir: config.WEB_DIR });
  await app.listen({ host: config.HOST, port: config.PORT });
  const controlToken = randomBytes(24).toString("hex");
  // The token is live before the lock file advertises it (`npm run reminders` reads the file).
  app.ctx.controlToken = controlToken;
  const { port } = app.server.address() as AddressInfo;
  lock?.update({ port, host: config.HOST, controlToken });
  const scheduler = startScheduler(app);
  app.log.info(
    {
      database: database.kind,
      mail: app.ctx.mailer.describe(),
      files: app.ctx.storage.describe(),
      ms: Date.now() - started,
    },
    `Permitrack ${config.publicUrl} is ready`,
  );
  logStream?.flush(); // the line someone starting the server waits for: now, not a second later

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down");
    await scheduler.stop();
    await app.close();
    await database.close();
    lock?.release();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((err: unknown) => {
  if (err instanceof DataDirLockedError) {
    console.error(`\n${err.message}\n`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
