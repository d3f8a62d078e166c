import { describe, expect, it } from "vitest";
import { PermitListQuerySchema } from "../../../../shared/schemas/permits.ts";
import { BUILT_IN_VIEWS } from "../../../../shared/domain/permit-list.ts";
import { SavedViewParamsSchema } from "../../../../shared/schemas/saved-views.ts";
import {
  CLEARED_FILTERS,
  filterOf,
  isFiltered,
  isSameView,
  nextSort,
  readListView,
  viewParams,
  writeListView,
} from "./list-params.ts";

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
    const id = "0b7c6f1e-2a9d-4c1b-9e3f-5d6a7b8c9d0e";
    const url =
      "q=grading+50%25&record_type=bond&show_archived=1&show_non_required=1&tile=expiring_soon&status=Pending" +
      `&project_id=${id}&client_id=${id}&agency=City+of+Denver&expires_from=2030-01-01&expires_to=2030-02-01` +
      "&group=none&sort=expiration_date&dir=desc&page=3&charts=1";
    const view = readListView(new URLSearchParams(url));
    expect(view.query).toMatchObject({
      q: "grading 50%",
      record_type: "bond",
      show_archived: true,
      show_non_required: true,
      tile: "expiring_soon",
      status: "Pending",
      project_id: id,
      client_id: id,
      agency: "City of Denver",
      expires_from: "2030-01-01",
      expires_to: "2030-02-01",
      group: "none",
      sort: "expiration_date",
      dir: "desc",
      page: 3,
    });
    expect(view.showCharts).toBe(true);
    expect(writeListView(view).toString()).toBe(url);
  });

  it("drops values a hand-edited link got wrong and keeps the rest", () => {
    const view = readListView(
      new URLSearchParams(
        "sort=id&page=-2&record_type=bond&page_size=9999&tile=soon&status=N/A&project_id=7&group=x" +
          "&expires_from=2030-02-30&expires_to=2030-01-01",
      ),
    );
    expect(view.query).toMatchObject({
      page: 1,
      record_type: "bond",
      page_size: 50,
      tile: null,
      status: null,
      project_id: null,
      group: "client_project",
      expires_from: null,
      expires_to: "2030-01-01",
    });
    expect(view.query.sort).toBeUndefined();
  });

  it("toggles the direction on the current column and starts a new column ascending", () => {
    const view = readListView(new URLSearchParams("sort=agency"));
    expect(nextSort(view.query, "agency")).toEqual({ sort: "agency", dir: "desc" });
    expect(nextSort({ ...view.query, dir: "desc" }, "agency")).toEqual({ sort: "agency", dir: "asc" });
    expect(nextSort(view.query, "permit_name")).toEqual({ sort: "permit_name", dir: "asc" });
    expect(filterOf({ ...view.query, tile: "expired", group: "none" })).toEqual({
      show_archived: false,
      show_non_required: false,
      record_type: null,
      q: null,
      status: null,
      project_id: null,
      client_id: null,
      agency: null,
      expires_from: null,
      expires_to: null,
      responsible: null,
    });
  });

  it("reads a valid URL exactly as the API's schema does", () => {
    for (const url of [
      "",
      "q=%20pump%20&record_type=permit",
      "show_archived=true&show_non_required=0",
      "sort=agency&dir=desc&page=7",
      "tile=expired&group=none&status=In+Waiting&agency=%20County%20&expires_to=2031-12-31",
    ]) {
      const params = new URLSearchParams(url);
      expect(readListView(params).query, url).toEqual(
        PermitListQuerySchema.parse(Object.fromEntries(params)),
      );
    }
  });

  it("keeps a view's filters as saved-view parameters the API accepts, and recognises a view it shows", () => {
    for (const view of BUILT_IN_VIEWS) {
      expect(SavedViewParamsSchema.parse(view.params)).toEqual(view.params);
      const query = readListView(new URLSearchParams(view.params as Record<string, string>)).query;
      expect(viewParams(query)).toEqual(view.params);
      expect(isSameView({ ...query, page: 4 }, view.params)).toBe(true);
      expect(isSameView({ ...query, q: "x" }, view.params)).toBe(false);
    }
    expect(isSameView(readListView(new URLSearchParams()).query, {})).toBe(true);
  });

  it("clears every filter and the tile, keeping grouping and sort (issue 25: 'Clear Filters')", () => {
    const filtered = readListView(
      new URLSearchParams("q=pump&tile=expired&status=Pending&agency=County&group=none&sort=agency"),
    ).query;
    expect(isFiltered(filtered)).toBe(true);
    const cleared = { ...filtered, ...CLEARED_FILTERS };
    expect(isFiltered(cleared)).toBe(false);
    expect(viewParams(cleared)).toEqual({ group: "none", sort: "agency" });
    // Show Archived and Show Non-Required are the list's rules, not filters to clear.
    expect(isFiltered(readListView(new URLSearchParams("show_archived=1&show_non_required=1")).query)).toBe(
      false,
    );
  });
});
