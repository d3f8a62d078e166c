import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, type Database } from "../db/client.ts";

/** A fresh, migrated database for one test file: PGlite in memory, or a clone of the pg template. */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB === "pg") {
    const url = process.env.TEST_DATABASE_URL!;
    const template = inject("pgTemplate");
    const name = `${template.replace("_tpl_", "_")}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 8 });
    return {
      ...database,
      close: async () => {
        await database.close();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const snapshot = fs.readFileSync(inject("pgliteSnapshot"));
  const client = await PGlite.create({ loadDataDir: new Blob([snapshot]) });
  return openDatabase({ pglite: client });
}
