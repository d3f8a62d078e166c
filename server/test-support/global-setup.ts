import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/client.ts";
import { MIGRATIONS_DIR, migrateDatabase } from "../db/migrate.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    pgTemplate: string;
  }
}

const SNAPSHOT_DIR = path.resolve(".test-data");

/** Hash of the migrations, so a schema change rebuilds the snapshot. */
function migrationsHash(): string {
  const h = crypto.createHash("sha256");
  for (const f of fs.readdirSync(MIGRATIONS_DIR).sort()) {
    const p = path.join(MIGRATIONS_DIR, f);
    if (fs.statSync(p).isFile()) h.update(f).update(fs.readFileSync(p));
  }
  return h.digest("hex").slice(0, 12);
}

/**
 * Migrates once per run: PGlite into a dumped snapshot that each test file loads in memory
 * (a fresh PGlite takes seconds to create), PostgreSQL into a template database that each test
 * file clones (CREATE DATABASE ... TEMPLATE), so every file starts from an empty, migrated schema.
 */
export default async function setup(project: TestProject) {
  // A project's `env` reaches its workers only; the global setup reads it from the project's config.
  if (project.config.env?.TEST_DB === "pg") {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error("TEST_DATABASE_URL is required for the api-pg project");
    const template = `permitrack_tpl_${Date.now()}_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${template}`);
    const u = new URL(url);
    u.pathname = `/${template}`;
    const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 1 });
    await migrateDatabase(database);
    await database.close();
    project.provide("pgTemplate", template);
    project.provide("pgliteSnapshot", "");
    return async () => {
      // Drop the template and any per-file database a crashed worker left behind.
      const res = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like $1`,
        [`${template.replace("_tpl_", "_%_")}%`],
      );
      for (const row of res.rows) await admin.query(`drop database if exists ${row.datname} with (force)`);
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }
  fs.mkdirSync(SNAPSHOT_DIR, { recursive: true });
  const file = path.join(SNAPSHOT_DIR, `pglite-${migrationsHash()}.tar.gz`);
  if (!fs.existsSync(file)) {
    const client = await PGlite.create();
    const database = await openDatabase({ pglite: client });
    await migrateDatabase(database);
    const dump = await client.dumpDataDir("gzip");
    fs.writeFileSync(`${file}.tmp`, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(`${file}.tmp`, file);
    await client.close();
  }
  project.provide("pgliteSnapshot", file);
  project.provide("pgTemplate", "");
}
