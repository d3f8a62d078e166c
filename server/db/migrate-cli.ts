import { loadConfig } from "../config.ts";
import { openDatabase } from "./client.ts";
import { migrateDatabase } from "./migrate.ts";

/** `npm run db:migrate`: applies the committed migrations to DATABASE_URL (or the embedded database). */
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  await migrateDatabase(database);
  console.log(`Migrations applied (${database.kind}).`);
} finally {
  await database.close();
}
