import { describe, expect, it } from "vitest";
import { PermitListQuerySchema } from "../../../../shared/schemas/permits.ts";
import { filterOf, nextSort, readListView, writeListView } from "./list-params.ts";

describe("All Permits view in the URL", () => {
  it("reads defaults from an empty URL and writes them back as nothing", () => {
    const view = readListView(new URLSearchParams());
    expect(view.query).toMatchObject({
      show_archived: false,
      show_non_required: false,
      record_type: null,
      q: null,
      dir: "asc",
      page: 1,
    });
    expect(view.query.sort).toBeUndefined();
    expect(view.showCharts).toBe(false);
    expect(writeListView(view).toString()).toBe("");
  });

  it("round-trips every setting", () => {
    const url =
      "q=grading+50%25&record_type=bond&show_archived=1&show_non_required=1&sort=expiration_date&dir=desc&page=3&charts=1";
    const view = readListView(new URLSearchParams(url));
    expect(view.query).toMatchObject({
      q: "grading 50%",
      record_type: "bond",
      show_archived: true,
      show_non_required: true,
      sort: "expiration_date",
      dir: "desc",
      page: 3,
    });
    expect(view.showCharts).toBe(true);
    expect(writeListView(view).toString()).toBe(url);
  });

  it("drops values a hand-edited link got wrong and keeps the rest", () => {
    const view = readListView(new URLSearchParams("sort=id&page=-2&record_type=bond&page_size=9999"));
    expect(view.query).toMatchObject({ page: 1, record_type: "bond", page_size: 50 });
    expect(view.query.sort).toBeUndefined();
  });

  it("toggles the direction on the current column and starts a new column ascending", () => {
    const view = readListView(new URLSearchParams("sort=agency"));
    expect(nextSort(view.query, "agency")).toEqual({ sort: "agency", dir: "desc" });
    expect(nextSort({ ...view.query, dir: "desc" }, "agency")).toEqual({ sort: "agency", dir: "asc" });
    expect(nextSort(view.query, "permit_name")).toEqual({ sort: "permit_name", dir: "asc" });
    expect(filterOf(view.query)).toEqual({
      show_archived: false,
      show_non_required: false,
      record_type: null,
      q: null,
    });
  });

  it("reads a valid URL exactly as the API's schema does", () => {
    for (const url of [
      "",
      "q=%20pump%20&record_type=permit",
      "show_archived=true&show_non_required=0",
      "sort=agency&dir=desc&page=7",
    ]) {
      const params = new URLSearchParams(url);
      expect(readListView(params).query, url).toEqual(
        PermitListQuerySchema.parse(Object.fromEntries(params)),
      );
    }
  });
});
