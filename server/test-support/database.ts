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
        // pool.end() resolves before its sockets have closed; dropping with force under them makes
        // pg report "connection lost" on stderr, so give them a moment to go first.
        for (let i = 0; i < 50; i++) {
          const { rows } = await admin.query(
            "select count(*)::int as n from pg_stat_activity where datname = $1",
            [name],
          );
          if (rows[0].n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const snapshot = fs.readFileSync(inject("pgliteSnapshot"));
  const client = await PGlite.create({ loadDataDir: new Blob([snapshot]) });
  return openDatabase({ pglite: client });
}
