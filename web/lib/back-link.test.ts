import { describe, expect, it } from "vitest";
import { backLink, fromList } from "./back-link.ts";

describe("backLink", () => {
  it("returns to the list the user came from, with its filters", () => {
    const state = fromList({ pathname: "/bonds", search: "?surety_id=abc&sort=current_amount&dir=desc" });
    expect(backLink(state, true)).toEqual({
      to: "/bonds?surety_id=abc&sort=current_amount&dir=desc",
      label: "Back to Bonds",
    });
    // A bond opened from All Permits goes back there.
    expect(backLink(fromList({ pathname: "/permits", search: "?record_type=bond" }), true)).toEqual({
      to: "/permits?record_type=bond",
      label: "Back to Permits",
    });
  });

  it("falls back to the record type's list without a list to return to", () => {
    expect(backLink(null, true)).toEqual({ to: "/bonds", label: "Back to Bonds" });
    expect(backLink(undefined, false)).toEqual({ to: "/permits", label: "Back to Permits" });
    for (const from of ["https://evil.example/bonds", "//evil.example", "/permits/123", "/admin/users", 42]) {
      expect(backLink({ from }, true)).toEqual({ to: "/bonds", label: "Back to Bonds" });
    }
  });
});
