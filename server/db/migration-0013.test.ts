import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows, type Database } from "./client.ts";
import { MIGRATIONS_DIR, migrateDatabase } from "./migrate.ts";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";

/*
 * Migration 0013 (issue 25, item 4: what clients read) on a database with lifecycle rows from
 * before it: every fee, note and typed extension reason becomes internal (nobody chose to show it
 * to clients), an inspection's extension keeps its reason shown (it names only the inspection),
 * and the audit trail is left as it was (its older entries get no flag; they are classified when
 * read).
 */

/** A copy of the migrations folder holding only those before `tag`. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-migrations-"));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta/_journal.json"), "utf8"));
  const cut = journal.entries.findIndex((e: { tag: string }) => e.tag === tag);
  journal.entries = journal.entries.slice(0, cut);
  fs.mkdirSync(path.join(dir, "meta"));
  fs.writeFileSync(path.join(dir, "meta/_journal.json"), JSON.stringify(journal));
  for (const e of journal.entries as { tag: string }[]) {
    fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  }
  return dir;
}

let database: Database;
let cleanup: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  const before = migrationsBefore("0013_internal_notes");
  if (process.env.TEST_DB === "pg") {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `permitrack_mig_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: u.toString(), poolSize: 2 });
    await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder: before });
    cleanup = async () => {
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  } else {
    database = await openDatabase({ pglite: await PGlite.create() });
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: before });
    cleanup = () => database.close();
  }
  fs.rmSync(before, { recursive: true, force: true });
}, 120_000);

afterAll(() => cleanup());

describe("migration 0013: internal notes", () => {
  it("makes earlier fees, notes and typed reasons internal, keeps an inspection's reason shown, and leaves the audit as it was", async () => {
    const db = database.db;
    const [company] = await queryRows<{ id: string }>(
      db,
      sql`insert into companies (name, slug) values ('Alpha', 'alpha') returning id`,
    );
    const [permit] = await queryRows<{ id: string }>(
      db,
      sql`insert into permits (company_id, permit_number, permit_name, expiration_date)
          values (${company!.id}, 'BP-1', 'Building', '2027-06-30') returning id`,
    );
    const [inspection] = await queryRows<{ id: string }>(
      db,
      sql`insert into permit_inspections (company_id, permit_id, inspection_type, inspected_on, result, notes)
          values (${company!.id}, ${permit!.id}, 'Final', '2026-01-10', 'Passed', 'Site swept') returning id`,
    );
    const term = (
      no: number,
      kind: string,
      extra: { fee?: string; note?: string; reason?: string; inspection?: string },
    ) =>
      db.execute(sql`insert into permit_terms (company_id, permit_id, term_no, kind, permit_number, expiration_date,
                       renewal_fee, note, reason, inspection_id)
                     values (${company!.id}, ${permit!.id}, ${no}, ${kind}, 'BP-1', '2027-06-30', ${extra.fee ?? null},
                       ${extra.note ?? null}, ${extra.reason ?? null}, ${extra.inspection ?? null})`);
    // (The permit's original term is written by 0007's trigger.)
    await term(2, "renewal", { fee: "125.50", note: "Paid at the counter" });
    await term(2, "extension", { reason: "Agency backlog" });
    await term(2, "extension", {
      reason: "Final passed on 2026-01-10 (+180 days)",
      inspection: inspection!.id,
    });
    await db.execute(
      sql`insert into permit_audit (company_id, permit_id, user_name, action, field, new_value)
          values (${company!.id}, ${permit!.id}, 'Dana', 'renew', 'note', 'Paid at the counter')`,
    );

    await migrateDatabase(database);

    const terms = await queryRows<{
      kind: string;
      renewal_fee_internal: boolean;
      note_internal: boolean;
      reason_internal: boolean;
      reason: string | null;
    }>(
      db,
      sql`select kind, renewal_fee_internal, note_internal, reason_internal, reason from permit_terms order by seq`,
    );
    expect(terms.map((r) => [r.kind, r.renewal_fee_internal, r.note_internal, r.reason_internal])).toEqual([
      ["original", true, true, true],
      ["renewal", true, true, true],
      ["extension", true, true, true],
      ["extension", true, true, false],
    ]);
    const inspections = await queryRows<{ notes_internal: boolean }>(
      db,
      sql`select notes_internal from permit_inspections`,
    );
    expect(inspections).toEqual([{ notes_internal: true }]);
    const audit = await queryRows<{ internal: boolean | null; new_value: string }>(
      db,
      sql`select internal, new_value from permit_audit`,
    );
    expect(audit).toEqual([{ internal: null, new_value: "Paid at the counter" }]);
  });
});
