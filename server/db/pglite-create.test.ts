import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows } from "./client.ts";
import { MIGRATIONS_DIR } from "./migrate.ts";
import { createPgliteDirectory } from "./pglite-create.ts";

// Real PGlite on real files (decision 0015): a new embedded database is made by a child process in a
// sibling folder and renamed into place; the serving process only opens it. Each creation takes seconds.
const CREATION_TIMEOUT = 180_000;
const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function tempDataDir() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-create-"));
  roots.push(root);
  return path.join(root, "data");
}

/** The pids of running child programs whose arguments mention `marker`. */
function creatorPids(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (cmd.includes("pglite-create.child.mjs") && cmd.includes(marker)) pids.push(Number(entry));
    } catch {
      /* ended meanwhile */
    }
  }
  return pids;
}

/** Collects the creator processes seen while `work` runs. */
async function watchCreators<T>(marker: string, work: Promise<T>): Promise<{ result: T; seen: Set<number> }> {
  const seen = new Set<number>();
  const timer = setInterval(() => creatorPids(marker).forEach((p) => seen.add(p)), 20);
  try {
    return { result: await work, seen };
  } finally {
    clearInterval(timer);
  }
}

const leftovers = (dataDir: string) =>
  fs.readdirSync(dataDir).filter((e) => e.startsWith("pglite.creating-"));
const migrationCount = () =>
  (
    JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as {
      entries: unknown[];
    }
  ).entries.length;

describe.skipIf(process.env.TEST_DB === "pg")("a new embedded database", () => {
  it(
    "is made and migrated by a child process, then opened by this one; the next open finds it",
    async () => {
      const dataDir = tempDataDir();
      const dbDir = path.join(dataDir, "pglite");
      fs.mkdirSync(dbDir, { recursive: true }); // as earlier versions left it: an empty folder is replaced
      const created: number[] = [];
      const { result: database, seen } = await watchCreators(
        dataDir,
        openDatabase({ dataDir, onCreated: (_dir, ms) => created.push(ms) }),
      );
      try {
        expect(created).toHaveLength(1);
        expect(seen.size).toBe(1);
        expect([...seen][0]).not.toBe(process.pid);
        expect(fs.existsSync(path.join(dbDir, "PG_VERSION"))).toBe(true);
        expect(leftovers(dataDir)).toEqual([]);
        // migrated by the child: nothing here ran the migrations
        const [applied] = await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        );
        expect(applied!.n).toBe(migrationCount());
        await database.exec(`insert into companies (name, slug) values ('Made By Child', 'made-by-child')`);
      } finally {
        await database.close();
      }

      const again = await openDatabase({ dataDir, onCreated: (_dir, ms) => created.push(ms) });
      try {
        expect(created).toHaveLength(1);
        const rows = await queryRows<{ name: string }>(again.db, sql`select name from companies`);
        expect(rows.map((r) => r.name)).toEqual(["Made By Child"]);
      } finally {
        await again.close();
      }
    },
    CREATION_TIMEOUT,
  );

  it(
    "killed half-way leaves nothing that is trusted later: the next open makes a new one",
    async () => {
      const dataDir = tempDataDir();
      const dbDir = path.join(dataDir, "pglite");
      fs.mkdirSync(dataDir, { recursive: true });
      const creating = createPgliteDirectory(dbDir, MIGRATIONS_DIR, { templates: null }); // initdb, not a copy
      const failed = creating.then(
        () => null,
        (err: Error) => err,
      );
      // Kill the child once initdb has begun writing (PG_VERSION exists in its folder).
      let killed = false;
      for (let i = 0; i < 6000 && !killed; i++) {
        const halfMade = leftovers(dataDir).some((e) => fs.existsSync(path.join(dataDir, e, "PG_VERSION")));
        const [pid] = creatorPids(dataDir);
        if (halfMade && pid) {
          process.kill(pid, "SIGKILL");
          killed = true;
        } else await new Promise((r) => setTimeout(r, 20));
      }
      expect(killed).toBe(true);
      const err = await failed;
      expect(err?.message).toMatch(/child process was ended by SIGKILL/);
      expect(fs.existsSync(dbDir)).toBe(false);
      expect(leftovers(dataDir)).toEqual([]);

      // A parent that died too leaves its half-made folder; it is removed, never opened.
      const orphan = path.join(dataDir, "pglite.creating-1");
      fs.mkdirSync(orphan);
      fs.writeFileSync(path.join(orphan, "PG_VERSION"), "18\n");
      const created: number[] = [];
      const database = await openDatabase({ dataDir, onCreated: (_dir, ms) => created.push(ms) });
      try {
        expect(created).toHaveLength(1);
        expect(leftovers(dataDir)).toEqual([]);
        const rows = await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from companies`,
        );
        expect(rows[0]!.n).toBe(0);
      } finally {
        await database.close();
      }
    },
    CREATION_TIMEOUT,
  );

  it(
    "keeps a template of the first creation, and the next one is a copy of it that works the same",
    async () => {
      const templates = path.join(path.dirname(tempDataDir()), "templates");
      const first = tempDataDir();
      const second = tempDataDir();
      const cold = await createPgliteDirectory(path.join(first, "pglite"), MIGRATIONS_DIR, { templates });
      const kept = fs.readdirSync(templates);
      expect(kept).toEqual([expect.stringMatching(/^pglite-\d+\.\d+\.\d+-[0-9a-f]{16}$/)]);
      const warm = await createPgliteDirectory(path.join(second, "pglite"), MIGRATIONS_DIR, { templates });
      expect(warm.ms).toBeLessThan(cold.ms);
      expect(fs.readdirSync(templates)).toEqual(kept);

      const database = await openDatabase({ dataDir: second });
      try {
        const [applied] = await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        );
        expect(applied!.n).toBe(migrationCount());
        await database.exec(`insert into companies (name, slug) values ('From Template', 'from-template')`);
      } finally {
        await database.close();
      }
      // `npm start`'s preparation (--only-template) finds it there and leaves no directory behind
      const scratch = path.join(tempDataDir(), "pglite");
      const child = path.join(path.dirname(MIGRATIONS_DIR), "pglite-create.child.mjs");
      const prep = spawnSync(process.execPath, [
        child,
        scratch,
        "--migrations",
        MIGRATIONS_DIR,
        "--templates",
        templates,
        "--only-template",
      ]);
      expect(prep.status).toBe(0);
      expect(fs.existsSync(scratch)).toBe(false);
      expect(fs.readdirSync(templates)).toEqual(kept);

      // a copy is a database of its own: what the second one holds is not in the template
      const third = tempDataDir();
      await createPgliteDirectory(path.join(third, "pglite"), MIGRATIONS_DIR, { templates });
      const other = await openDatabase({ dataDir: third });
      try {
        const rows = await queryRows<{ n: number }>(other.db, sql`select count(*)::int as n from companies`);
        expect(rows[0]!.n).toBe(0);
      } finally {
        await other.close();
      }
    },
    CREATION_TIMEOUT,
  );

  it("refuses a folder that holds something other than a database", async () => {
    const dataDir = tempDataDir();
    fs.mkdirSync(path.join(dataDir, "pglite"), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "pglite", "notes.txt"), "mine");
    await expect(openDatabase({ dataDir })).rejects.toThrow(/not empty but holds no database/);
    expect(fs.readFileSync(path.join(dataDir, "pglite", "notes.txt"), "utf8")).toBe("mine");
    expect(fs.existsSync(path.join(dataDir, "permitrack.lock"))).toBe(false);
  });
});
