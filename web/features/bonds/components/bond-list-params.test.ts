import { describe, expect, it } from "vitest";
import { BondListQuerySchema } from "../../../../shared/schemas/bonds.ts";
import {
  bondExportUrl,
  bondScheduleUrl,
  CLEARED_BOND_FILTERS,
  isBondFiltered,
  nextBondSort,
  readBondQuery,
  writeBondQuery,
} from "./bond-list-params.ts";

const SURETY = "3f1c2b7e-9a1d-4c7e-8b2a-0d4e5f6a7b8c";
const read = (qs: string) => readBondQuery(new URLSearchParams(qs));

describe("the Bonds page's view in its URL", () => {
  it("reads a link as the API reads the same query string", () => {
    for (const qs of [
      "",
      `surety_id=${SURETY}&status=reduced&guarantee_type=Performance&sort=current_amount&dir=desc&page=3`,
      "surety_id=none&q=storm",
    ]) {
      const api = BondListQuerySchema.parse(Object.fromEntries(new URLSearchParams(qs)));
      expect(read(qs)).toEqual({ ...api, sort: api.sort });
    }
  });

  it("drops what does not parse, and writes back only what differs from the defaults", () => {
    const q = read("surety_id=nope&status=lost&sort=colour&dir=up&page=-2&client_id=42");
    expect(q).toMatchObject({
      surety_id: null,
      status: null,
      sort: undefined,
      dir: "asc",
      page: 1,
      client_id: null,
    });
    expect(writeBondQuery(q).toString()).toBe("");
    const view = read(`status=active&surety_id=${SURETY}&sort=surety&dir=desc&page=2`);
    expect(writeBondQuery(view).toString()).toBe(
      `surety_id=${SURETY}&status=active&sort=surety&dir=desc&page=2`,
    );
  });

  it("exports the view's filters and sort; the schedule takes the filters only", () => {
    const view = read(`surety_id=${SURETY}&sort=surety&dir=desc&page=4`);
    expect(bondExportUrl(view, "csv")).toBe(
      `/api/bonds/export?format=csv&surety_id=${SURETY}&sort=surety&dir=desc`,
    );
    expect(bondScheduleUrl(view)).toBe(`/api/bonds/schedule.xlsx?surety_id=${SURETY}`);
  });

  it("sorts a new column ascending and flips the current one", () => {
    const view = read("sort=surety");
    expect(nextBondSort(view, "status")).toEqual({ sort: "status", dir: "asc" });
    expect(nextBondSort(view, "surety")).toEqual({ sort: "surety", dir: "desc" });
  });

  it("clears the search and every filter, keeping the sort (issue 25: 'Clear Filters')", () => {
    const view = read(`q=deck&surety_id=${SURETY}&status=active&sort=surety`);
    expect(isBondFiltered(view)).toBe(true);
    const cleared = { ...view, ...CLEARED_BOND_FILTERS };
    expect(isBondFiltered(cleared)).toBe(false);
    expect(writeBondQuery(cleared).toString()).toBe("sort=surety");
    expect(isBondFiltered(read("sort=surety&dir=desc"))).toBe(false);
  });
});
