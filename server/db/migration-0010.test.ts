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
 * Migration 0010 (the bond ledger) on a database that has bonds from before it: sureties made from
 * the distinct trimmed surety names of each company (matched without regard to case), each bond
 * linked to its surety, Active, its amount as current amount and as the original ledger entry.
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
  const before = migrationsBefore("0010_bond_ledger");
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

describe("migration 0010: existing bonds", () => {
  it("makes sureties from the names, links the bonds, and opens each ledger with the bond amount", async () => {
    const db = database.db;
    const [a] = await queryRows<{ id: string }>(
      db,
      sql`insert into companies (name, slug, time_zone) values ('Alpha', 'alpha', 'America/New_York') returning id`,
    );
    const [b] = await queryRows<{ id: string }>(
      db,
      sql`insert into companies (name, slug) values ('Beta', 'beta') returning id`,
    );
    const bond = (
      company: string,
      number: string,
      surety: string | null,
      amount: string | null,
      issue: string | null,
    ) =>
      sql`insert into permits (company_id, permit_number, permit_name, record_type, surety_company, bond_amount, issue_date,
            guarantee_type, created_at)
          values (${company}, ${number}, ${number}, 'bond', ${surety}, ${amount}, ${issue}, 'Performance',
            '2025-03-10T02:00:00Z')`;
    await db.execute(bond(a!.id, "A1", "Acme Surety", "1000.00", "2025-01-15"));
    await db.execute(bond(a!.id, "A2", "  acme surety ", "2500.50", null));
    await db.execute(bond(a!.id, "A3", "ACME SURETY", null, null));
    await db.execute(bond(a!.id, "A6", "Acme Surety", null, null));
    await db.execute(bond(a!.id, "A4", "Other Bonding", "10.00", "2025-02-01"));
    await db.execute(bond(a!.id, "A5", "   ", "20.00", "2025-02-01"));
    await db.execute(bond(b!.id, "B1", "Acme Surety", "300.00", "2025-04-01"));
    await db.execute(
      sql`insert into permits (company_id, permit_number, permit_name, record_type, surety_company, bond_amount)
          values (${a!.id}, 'P1', 'A permit', 'permit', 'Not A Surety', null)`,
    );

    await migrateDatabase(database);

    const suretyRows = await queryRows<{ company: string; name: string }>(
      db,
      sql`select c.name as company, s.name from sureties s join companies c on c.id = s.company_id order by 1, 2`,
    );
    // The most used spelling names the surety; blank names and permits make none.
    expect(suretyRows).toEqual([
      { company: "Alpha", name: "Acme Surety" },
      { company: "Alpha", name: "Other Bonding" },
      { company: "Beta", name: "Acme Surety" },
    ]);
    const bonds = await queryRows<{
      permit_number: string;
      surety: string | null;
      same_company: boolean | null;
      bond_status: string | null;
      current_amount: string | null;
    }>(
      db,
      sql`select p.permit_number, s.name as surety, s.company_id = p.company_id as same_company, p.bond_status,
                 p.current_amount::text as current_amount
          from permits p left join sureties s on s.id = p.surety_id order by p.permit_number`,
    );
    expect(bonds).toEqual([
      {
        permit_number: "A1",
        surety: "Acme Surety",
        same_company: true,
        bond_status: "active",
        current_amount: "1000.00",
      },
      {
        permit_number: "A2",
        surety: "Acme Surety",
        same_company: true,
        bond_status: "active",
        current_amount: "2500.50",
      },
      {
        permit_number: "A3",
        surety: "Acme Surety",
        same_company: true,
        bond_status: "active",
        current_amount: null,
      },
      {
        permit_number: "A4",
        surety: "Other Bonding",
        same_company: true,
        bond_status: "active",
        current_amount: "10.00",
      },
      {
        permit_number: "A5",
        surety: null,
        same_company: null,
        bond_status: "active",
        current_amount: "20.00",
      },
      {
        permit_number: "A6",
        surety: "Acme Surety",
        same_company: true,
        bond_status: "active",
        current_amount: null,
      },
      {
        permit_number: "B1",
        surety: "Acme Surety",
        same_company: true,
        bond_status: "active",
        current_amount: "300.00",
      },
      { permit_number: "P1", surety: null, same_company: null, bond_status: null, current_amount: null },
    ]);
    const entries = await queryRows<{
      permit_number: string;
      kind: string;
      change: string;
      amount_after: string;
      effective_date: string;
    }>(
      db,
      sql`select p.permit_number, e.kind, e.change::text as change, e.amount_after::text as amount_after,
                 e.effective_date::text as effective_date
          from bond_ledger_entries e join permits p on p.id = e.permit_id order by p.permit_number`,
    );
    // Effective on the issue date, else the day the bond was created in its company's zone
    // (02:00 UTC on 10 March is the 9th in New York).
    expect(entries).toEqual([
      {
        permit_number: "A1",
        kind: "original",
        change: "1000.00",
        amount_after: "1000.00",
        effective_date: "2025-01-15",
      },
      {
        permit_number: "A2",
        kind: "original",
        change: "2500.50",
        amount_after: "2500.50",
        effective_date: "2025-03-09",
      },
      {
        permit_number: "A4",
        kind: "original",
        change: "10.00",
        amount_after: "10.00",
        effective_date: "2025-02-01",
      },
      {
        permit_number: "A5",
        kind: "original",
        change: "20.00",
        amount_after: "20.00",
        effective_date: "2025-02-01",
      },
      {
        permit_number: "B1",
        kind: "original",
        change: "300.00",
        amount_after: "300.00",
        effective_date: "2025-04-01",
      },
    ]);
    const [currency] = await queryRows<{ currency: string }>(
      db,
      sql`select currency from companies where id = ${a!.id}`,
    );
    expect(currency!.currency).toBe("USD");
  });
});
