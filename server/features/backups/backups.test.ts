import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { attachments, companies } from "../../db/schema.ts";
import { PNG } from "../../test-support/matrix-world.ts";
import { multipart } from "../../test-support/multipart.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { readManifest, MANIFEST_FILE, type Manifest } from "./backup-manifest.ts";
import { takeBackup } from "./backup.service.ts";
import { restoreBackup, verifyBackup } from "./restore.service.ts";

/*
 * Issue 26, backups: a backup taken from the running app's database (PGlite in this project,
 * PostgreSQL in api-pg) with attachments and a logo, restored into a new database of the same kind
 * and of the other kind, every table's rows and every file's bytes compared with the source; a
 * tampered backup fails --verify; a non-empty target is refused without --force.
 */

const t = useTestContext();
const w = useWorld(t, { permits: true });
const ON_PG = process.env.TEST_DB === "pg";
/** The PostgreSQL server restores go to (the api-pglite run gets it from the test command too). */
const PG_URL = process.env.TEST_DATABASE_URL;

/** Every byte value, so nothing in a file can be mangled unnoticed (text encodings, line ends). */
const BINARY = Buffer.from(Array.from({ length: 3 * 256 }, (_, i) => i % 256));
/** Line ends of both kinds and a line that reads as the end of COPY data. */
const NOTES = Buffer.from("line one\r\nline two\n\\.\n");

let work: string;
let backupDir: string;
let manifest: Manifest;

const sourceUrl = () =>
  (t.database.pool?.options as { connectionString?: string } | undefined)?.connectionString;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-backups-test-"));
  const upload = (permitId: string, filename: string, content: Buffer) =>
    w.user.request({
      method: "POST",
      url: `/api/permits/${permitId}/attachments`,
      ...multipart([{ name: "file", filename, content, contentType: "application/octet-stream" }]),
    });
  expect((await upload(w.permitId, "bytes.bin", BINARY)).statusCode).toBe(201);
  expect((await upload(w.permitId, "notes.txt", NOTES)).statusCode).toBe(201);
  const logo = await w.superAdmin.request({
    method: "POST",
    url: `/api/companies/${w.companyId}/logo`,
    ...multipart([{ name: "file", filename: "logo.png", content: PNG, contentType: "image/png" }]),
  });
  expect(logo.statusCode).toBe(200);
  // Text COPY must carry as it is: tabs, line breaks, backslashes, quotes, non-Latin letters.
  const comment = await w.user.post(`/api/permits/${w.permitId}/comments`, {
    text: "tab\there\nnew line \\N back\\slash 'quote' \"dq\" — Zürich 東京",
  });
  expect(comment.statusCode).toBe(201);
  const result = await takeBackup(
    {
      database: t.database,
      databaseUrl: sourceUrl(),
      storage: t.app.ctx.storage,
      filesInBucket: false,
      sessionSecretFile: null,
    },
    path.join(work, "out"),
  );
  backupDir = result.dir;
  manifest = result.manifest;
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

type Query = <T>(text: string) => Promise<T[]>;

/** Each table of the app's schemas: its rows as text, sorted (the whole content, not a count). */
async function fingerprint(query: Query): Promise<Record<string, { rows: number; md5: string }>> {
  await query("set timezone = 'UTC'");
  const tables = await query<{ name: string; sql: string }>(
    `select n.nspname || '.' || c.relname as name, format('%I.%I', n.nspname, c.relname) as sql
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'r' and n.nspname in ('public', 'drizzle') order by 1`,
  );
  const out: Record<string, { rows: number; md5: string }> = {};
  for (const table of tables) {
    const [row] = await query<{ rows: number; md5: string }>(
      `select count(*)::int as rows, md5(coalesce(string_agg(x.t, E'\\n' order by x.t), '')) as md5
       from (select r::text as t from ${table.sql} r) x`,
    );
    out[table.name] = row!;
  }
  return out;
}

const sourceQuery: Query = async (text) => queryRows(t.db, sql.raw(text));

async function withPgDatabase<T>(fn: (url: string, query: Query) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const name = `permitrack_restore_${Math.random().toString(36).slice(2, 10)}`;
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL!);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
    return await fn(url.toString(), async (text) => (await client.query(text)).rows);
  } finally {
    await client.end();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function withPgliteDir<T>(dataDir: string, fn: (query: Query) => Promise<T>): Promise<T> {
  const db = await PGlite.create(path.join(dataDir, "pglite"));
  try {
    return await fn(async (text) => (await db.query(text)).rows as never);
  } finally {
    await db.close();
  }
}

/** Every stored file of the source, byte for byte, under the target's DATA_DIR/files. */
async function expectSameFiles(dataDir: string) {
  const keys = [
    ...(await t.db.select({ key: attachments.storageKey }).from(attachments)).map((r) => r.key),
    ...(await t.db.select({ key: companies.logoKey }).from(companies)).flatMap((r) => (r.key ? [r.key] : [])),
  ];
  expect(keys.length).toBe(3);
  for (const key of keys) {
    const original = fs.readFileSync(path.join(t.dataDir, "files", key));
    expect(fs.readFileSync(path.join(dataDir, "files", key)).equals(original), key).toBe(true);
  }
}

describe("npm run backup", () => {
  it("writes the dump, the files and a manifest with every table's rows and every file's SHA-256", async () => {
    expect(path.basename(backupDir)).toMatch(/^permitrack-backup-\d{8}T\d{6}Z$/);
    expect(readManifest(backupDir)).toEqual(manifest);
    expect(manifest.database.kind).toBe(ON_PG ? "pg" : "pglite");
    expect(manifest.database.file).toBe(ON_PG ? "database.dump" : "database.sql.gz");
    expect(manifest.tables["public.permits"]).toBe(3);
    expect(manifest.tables["public.attachments"]).toBe(2);
    expect(manifest.tables["drizzle.__drizzle_migrations"]).toBeGreaterThan(10);
    const counts = Object.fromEntries(
      Object.entries(await fingerprint(sourceQuery)).map(([table, f]) => [table, f.rows]),
    );
    expect(manifest.tables).toEqual(counts);
    expect(manifest.files.storage).toBe("local");
    expect(manifest.files.items.map((f) => f.bytes).sort((a, b) => a - b)).toEqual(
      [PNG.length, NOTES.length, BINARY.length].sort((a, b) => a - b),
    );
    expect(fs.readdirSync(path.dirname(backupDir))).toEqual([path.basename(backupDir)]); // no .partial left
  });
});

// Each restore creates a database (PostgreSQL, or PGlite: about 10 s of WebAssembly start on a busy
// 2-core machine) and loads it: far past the default 30 s when the suite runs beside another.
describe("npm run restore", { timeout: 120_000 }, () => {
  it(`restores into a new ${ON_PG ? "PostgreSQL" : "embedded"} database: every table's rows and every file's bytes`, async () => {
    const source = await fingerprint(sourceQuery);
    const dataDir = path.join(work, "same-kind");
    if (ON_PG) {
      await withPgDatabase(async (url, query) => {
        await restoreBackup(
          backupDir,
          { databaseUrl: url, dataDir, sessionSecretSet: true },
          { force: false },
        );
        expect(await fingerprint(query)).toEqual(source);
      });
    } else {
      await restoreBackup(backupDir, { dataDir, sessionSecretSet: true }, { force: false });
      expect(await withPgliteDir(dataDir, fingerprint)).toEqual(source);
    }
    await expectSameFiles(dataDir);
  });

  it.runIf(ON_PG || PG_URL)(
    `restores into the other kind of database (${ON_PG ? "PostgreSQL → PGlite" : "PGlite → PostgreSQL"})`,
    async () => {
      const source = await fingerprint(sourceQuery);
      const dataDir = path.join(work, "other-kind");
      if (ON_PG) {
        await restoreBackup(backupDir, { dataDir, sessionSecretSet: true }, { force: false });
        expect(await withPgliteDir(dataDir, fingerprint)).toEqual(source);
      } else {
        await withPgDatabase(async (url, query) => {
          await restoreBackup(
            backupDir,
            { databaseUrl: url, dataDir, sessionSecretSet: true },
            { force: false },
          );
          expect(await fingerprint(query)).toEqual(source);
        });
      }
      await expectSameFiles(dataDir);
    },
  );

  it("refuses a target that is not empty without --force, changing nothing; replaces it with --force", async () => {
    const dataDir = path.join(work, "occupied");
    const restore = (force: boolean) =>
      ON_PG
        ? withPgDatabase(async (url, query) => {
            await query("create table public.keep_me (id int)");
            await expect(
              restoreBackup(backupDir, { databaseUrl: url, dataDir, sessionSecretSet: true }, { force }),
            ).rejects.toThrow(/not empty.*--force/s);
            expect(await query("select * from public.keep_me")).toEqual([]);
          })
        : restoreBackup(backupDir, { dataDir, sessionSecretSet: true }, { force });
    if (ON_PG) {
      await restore(false);
      return withPgDatabase(async (url, query) => {
        await query("create table public.keep_me (id int)");
        await restoreBackup(
          backupDir,
          { databaseUrl: url, dataDir, sessionSecretSet: true },
          { force: true },
        );
        expect(await query("select to_regclass('public.keep_me') as t")).toEqual([{ t: null }]);
        expect(await fingerprint(query)).toEqual(await fingerprint(sourceQuery));
      });
    }
    await restore(false); // into an empty folder: fine
    const marker = path.join(dataDir, "files", "marker");
    fs.writeFileSync(marker, "mine");
    await expect(restore(false)).rejects.toThrow(/not empty.*--force/s);
    expect(fs.readFileSync(marker, "utf8")).toBe("mine");
    await restore(true);
    expect(fs.existsSync(marker)).toBe(false);
    expect(await withPgliteDir(dataDir, fingerprint)).toEqual(await fingerprint(sourceQuery));
  });
});

describe("npm run restore -- --verify", { timeout: 120_000 }, () => {
  /** A copy of the backup to tamper with. */
  const copy = (name: string) => {
    const dir = path.join(work, name, path.basename(backupDir));
    fs.cpSync(backupDir, dir, { recursive: true });
    return dir;
  };

  it("passes an untouched backup: every row count and file hash as in the manifest", async () => {
    const report = await verifyBackup(backupDir, { databaseUrl: sourceUrl() });
    expect(report.problems).toEqual([]);
  });

  it("fails a backup whose file was changed", async () => {
    const dir = copy("tampered-file");
    const item = manifest.files.items.find((f) => f.bytes === BINARY.length)!;
    const file = path.join(dir, "files", item.key);
    const bytes = fs.readFileSync(file);
    bytes[100] = bytes[100]! ^ 1;
    fs.writeFileSync(file, bytes);
    const report = await verifyBackup(dir, { databaseUrl: sourceUrl() });
    expect(report.problems).toEqual([`file ${item.key} does not match its SHA-256 in the manifest`]);
    await expect(
      restoreBackup(dir, { dataDir: path.join(work, "never"), sessionSecretSet: true }, { force: false }),
    ).rejects.toThrow(/does not match its manifest; nothing was restored/);
    expect(fs.existsSync(path.join(work, "never"))).toBe(false);
  });

  it.runIf(!ON_PG)("fails a dump that lost a row, even with the dump's hash made to match", async () => {
    const dir = copy("tampered-dump");
    const dump = path.join(dir, "database.sql.gz");
    const lines = zlib.gunzipSync(fs.readFileSync(dump)).toString("utf8").split("\n");
    const start = lines.findIndex((l) => l.startsWith('COPY "public"."comments" '));
    lines.splice(start + 1, 1); // the comment's row
    fs.writeFileSync(dump, zlib.gzipSync(lines.join("\n")));
    const forged = readManifest(dir);
    const { createHash } = await import("node:crypto");
    forged.database.sha256 = createHash("sha256").update(fs.readFileSync(dump)).digest("hex");
    fs.writeFileSync(path.join(dir, MANIFEST_FILE), JSON.stringify(forged));
    const report = await verifyBackup(dir, {});
    expect(report.problems).toEqual(["table public.comments has 0 rows, the manifest says 1"]);
  });

  it.runIf(ON_PG)("fails a dump that was changed", async () => {
    const dir = copy("tampered-dump");
    const dump = path.join(dir, "database.dump");
    const bytes = fs.readFileSync(dump);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    fs.writeFileSync(dump, bytes);
    const report = await verifyBackup(dir, { databaseUrl: sourceUrl() });
    expect(report.problems[0]).toBe("database.dump does not match its SHA-256 in the manifest");
  });
});
