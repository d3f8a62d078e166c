import * as drizzle from "drizzle-orm";
import { asc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Db } from "./client.ts";
import { clients, comments, companies, permits, projects, users } from "./schema.ts";
import { compileRowMapper, withCompiledRows, type OrderedField } from "./compiled-rows.ts";
import { openTestDatabase } from "../test-support/database.ts";
import { factories } from "../test-support/factories.ts";

const responsible = alias(users, "responsible");

/** drizzle's own row mapping: exported by the package, though not by its types. */
const { mapResultRow } = drizzle as unknown as {
  mapResultRow: (fields: OrderedField[], row: unknown[], joins?: Record<string, boolean>) => unknown;
};

/**
 * Selects shaped like the app's hot reads: top-level columns, a whole table, nested objects of one
 * joined table (left joins, present and missing), an object mixing two tables, `sql` fields with
 * and without a decoder, timestamps (decoded to Date).
 */
function shapes(db: Db) {
  return {
    flat: () =>
      db
        .select({ id: permits.id, number: permits.permitNumber, createdAt: permits.createdAt })
        .from(permits)
        .orderBy(asc(permits.permitNumber)),
    joined: () =>
      db
        .select({
          permit: permits,
          companyName: companies.name,
          project: { id: projects.id, name: projects.name, createdAt: projects.createdAt },
          client: { id: clients.id, name: clients.name },
          responsible: { id: responsible.id, email: responsible.email },
          mixed: { clientName: clients.name, projectName: projects.name },
          commentCount:
            sql<number>`(select count(*) from ${comments} where ${comments.permitId} = ${permits.id})`.mapWith(
              Number,
            ),
          raw: sql<string>`'text'`,
        })
        .from(permits)
        .innerJoin(companies, eq(companies.id, permits.companyId))
        .leftJoin(projects, eq(projects.id, permits.projectId))
        .leftJoin(clients, eq(clients.id, permits.clientId))
        .leftJoin(responsible, eq(responsible.id, permits.responsibleUserId))
        .orderBy(asc(permits.permitNumber)),
    wholeJoinedTable: () =>
      db
        .select({ permitId: permits.id, comment: comments })
        .from(permits)
        .leftJoin(comments, eq(comments.permitId, permits.id))
        .orderBy(asc(permits.permitNumber), asc(comments.createdAt)),
  };
}

describe("compiled row mapping", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    const f = factories(database.db);
    const company = await f.company();
    const client = await f.client(company.id);
    const project = await f.project({ companyId: company.id, clientId: client.id });
    const user = await f.user({ companyId: company.id, role: "company-user" });
    // With a project, client and responsible person, and comments; with none of them; a client only.
    const full = await f.permit({
      companyId: company.id,
      projectId: project.id,
      clientId: client.id,
      responsibleUserId: user.id,
      permitNumber: "P-1",
    });
    await f.permit({ companyId: company.id, permitNumber: "P-2" });
    await f.permit({ companyId: company.id, clientId: client.id, permitNumber: "P-3" });
    await database.db.insert(comments).values([
      { permitId: full.id, companyId: company.id, text: "first", userName: "A", isInternal: false },
      { permitId: full.id, companyId: company.id, text: "second", userName: "B", isInternal: true },
    ]);
  });
  afterAll(() => database.close());

  for (const shape of ["flat", "joined", "wholeJoinedTable"] as const) {
    it(`gives the rows drizzle gives, key order and types included: ${shape}`, async () => {
      const query = shapes(database.db)[shape];
      const expected = await query().prepare(`compiled_rows_plain_${shape}`).execute();
      const compiled = withCompiledRows(query().prepare(`compiled_rows_${shape}`));
      const actual = await compiled.execute();
      expect(actual.length).toBeGreaterThan(0);
      expect(actual).toStrictEqual(expected);
      // Same keys in the same order, nested objects included.
      expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
    });
  }

  it("turns a missing left-joined table into null and keeps a present one, as drizzle does", async () => {
    const rows = await withCompiledRows(
      shapes(database.db).joined().prepare("compiled_rows_nulls"),
    ).execute();
    const [p1, p2, p3] = rows;
    expect(p1!.project).toMatchObject({ name: expect.any(String) });
    expect(p1!.project!.createdAt).toBeInstanceOf(Date);
    expect(p1!.permit.createdAt).toBeInstanceOf(Date);
    expect(p1!.commentCount).toBe(2);
    expect(p2!.project).toBeNull();
    expect(p2!.client).toBeNull();
    expect(p2!.responsible).toBeNull();
    // An object of two tables' columns is never nulled; its values are.
    expect(p2!.mixed).toEqual({ clientName: null, projectName: null });
    expect(p3!.client).toMatchObject({ name: expect.any(String) });
    expect(p3!.project).toBeNull();
  });

  it("agrees with drizzle's mapResultRow on every pattern of nulls", () => {
    const query = shapes(database.db).joined().prepare("compiled_rows_fields");
    const { fields, joinsNotNullableMap } = query as unknown as {
      fields: OrderedField[];
      joinsNotNullableMap: Record<string, boolean>;
    };
    const mapRow = compileRowMapper(fields, joinsNotNullableMap);
    // Raw driver values: text for every column but the count, as the drivers hand them over.
    const sample = (i: number) =>
      fields[i]!.path.at(-1) === "createdAt" ? "2026-01-02 03:04:05+00" : `v${i}`;
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 300; n++) {
      // Whole runs of nulls (a missing join), single nulls (a null first column, a null later one).
      const values = fields.map((_, i) => (random() < 0.3 ? null : sample(i)));
      if (n % 3 === 0) for (let i = 0; i < values.length; i++) if (random() < 0.5) values[i] = null;
      expect(mapRow(values)).toStrictEqual(mapResultRow(fields, values, joinsNotNullableMap));
    }
  });

  it("refuses what it cannot map: anything but a prepared select of fields", () => {
    expect(() => withCompiledRows({})).toThrow(/prepared select/);
  });
});
