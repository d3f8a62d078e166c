import { describe, expect, it } from "vitest";
import type { Suggestion } from "../../../shared/domain/document-reading.ts";
import { bestPerField, compare, sameValue, shownValue, sortSuggestions } from "./suggestion-values.ts";

const s = (over: Partial<Suggestion>): Suggestion => ({
  field: "expiration_date",
  value: "2027-03-31",
  raw: "03/31/2027",
  page: 1,
  snippet: "Expiration Date 03/31/2027",
  confidence: 0.9,
  ambiguous: false,
  ...over,
});

describe("a suggestion beside the value there now", () => {
  it("is the same, different, not there yet, or has nothing to compare with", () => {
    expect(compare(s({}), { expiration_date: "2027-03-31" })).toBe("same");
    expect(compare(s({}), { expiration_date: "2027-03-30" })).toBe("differs");
    expect(compare(s({}), { expiration_date: null })).toBe("empty");
    expect(compare(s({}), { expiration_date: "" })).toBe("empty");
    expect(compare(s({ field: "rider_effective_date" }), { expiration_date: "2027-03-31" })).toBe("none");
  });

  it("takes amounts by their value and names in any case or spacing", () => {
    expect(sameValue("bond_amount", "12500.00", "12500")).toBe(true);
    expect(sameValue("bond_amount", "12500.00", "12500.01")).toBe(false);
    expect(sameValue("surety_company", "Western  Surety Company", "western surety company")).toBe(true);
    expect(sameValue("permit_number", "BP-1", "BP-2")).toBe(false);
  });

  it("shows dates and amounts as the app does, other values as read", () => {
    expect(shownValue("bond_amount", "1250000.00", "USD")).toMatch(/1,250,000\.00/);
    expect(shownValue("issue_date", "2026-03-04", null)).not.toBe("2026-03-04");
    expect(shownValue("agency", "City of Springfield", null)).toBe("City of Springfield");
  });
});

describe("Accept All", () => {
  it("takes the surest value of each field, in the form's order", () => {
    const picked = bestPerField([
      s({ value: "2027-01-01", confidence: 0.4 }),
      s({ field: "permit_number", value: "BP-1", confidence: 0.8 }),
      s({ value: "2027-03-31", confidence: 0.95 }),
    ]);
    expect(picked.map((p) => `${p.field}=${p.value}`)).toEqual([
      "permit_number=BP-1",
      "expiration_date=2027-03-31",
    ]);
    expect(sortSuggestions([s({ field: "agency" }), s({ field: "permit_number" })])[0]!.field).toBe(
      "permit_number",
    );
  });
});
