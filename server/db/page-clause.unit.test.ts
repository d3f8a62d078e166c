import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { pageClause } from "./page-clause.ts";

const render = (limit: number, offset: number) => new PgDialect().sqlToQuery(pageClause(limit, offset));

describe("pageClause", () => {
  it("writes the page size into the text and leaves the first page without an offset", () => {
    expect(render(50, 0)).toMatchObject({ sql: "limit 50", params: [] });
  });

  it("passes a later page's offset as a parameter, so every page shares one text", () => {
    expect(render(50, 100)).toMatchObject({ sql: "limit 50 offset $1", params: [100] });
    expect(render(50, 150).sql).toBe(render(50, 100).sql);
  });

  it("refuses what is not a whole number, since the size is written into the text", () => {
    for (const [limit, offset] of [
      [1.5, 0],
      [-1, 0],
      [Number.NaN, 0],
      [10, -10],
      [10, 0.5],
    ] as const) {
      expect(() => render(limit, offset)).toThrow(/whole number/);
    }
  });
});
