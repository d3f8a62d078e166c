import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { companies } from "./schema.ts";
import { NAMED_STATEMENTS_PER_CONNECTION } from "./statements.ts";
import { openTestDatabase } from "../test-support/database.ts";
import { statementsOf } from "../test-support/statements.ts";

describe("statements", () => {
  it("hands every statement through drizzle to its listeners", async () => {
    const database = await openTestDatabase();
    try {
      const { statements } = await statementsOf(database, () =>
        database.db.transaction(async (tx) => {
          await tx.select().from(companies).where(eq(companies.name, "x"));
        }),
      );
      // PGlite's driver reports its begin and commit too; node-postgres's sends them past the logger.
      expect(statements.filter((s) => s.startsWith("select"))).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  it.runIf(process.env.TEST_DB === "pg")(
    "on PostgreSQL keeps a read prepared per connection, named by its text, and leaves writes unnamed",
    async () => {
      const database = await openTestDatabase();
      try {
        const { pool } = database;
        const read = (name: string) => database.db.select().from(companies).where(eq(companies.name, name));
        // One connection at a time: a transaction holds one, so its statements share it.
        const prepared = await database.db.transaction(async (tx) => {
          await tx.select().from(companies).where(eq(companies.name, "a"));
          await tx.select().from(companies).where(eq(companies.name, "b")); // same text, other value
          await tx.insert(companies).values({ name: "Named Co", slug: `named-${Date.now()}` });
          const rows = await tx.execute(sql`select statement from pg_prepared_statements`);
          return (rows as unknown as { rows: { statement: string }[] }).rows.map((r) => r.statement);
        });
        const selects = prepared.filter((s) => s.startsWith("select") && s.includes('from "companies"'));
        expect(selects).toHaveLength(1);
        expect(prepared.some((s) => s.startsWith("insert"))).toBe(false);
        // The results are those of unprepared statements.
        expect(await read("Named Co")).toHaveLength(1);
        expect(await read("nobody")).toHaveLength(0);
        expect(NAMED_STATEMENTS_PER_CONNECTION).toBeGreaterThan(0);
        expect(pool).toBeDefined();
      } finally {
        await database.close();
      }
    },
  );
});
