import { describe, expect, it } from "vitest";
import { groupTerms, type TermRow } from "./term-history.ts";

let n = 0;
const row = (over: Partial<TermRow> & Pick<TermRow, "term_no" | "kind">): TermRow => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
  permit_number: "P-1",
  issue_date: "2026-01-05",
  expiration_date: "2027-01-05",
  ended_on: null,
  renewal_fee: null,
  renewal_fee_internal: false,
  note: null,
  note_internal: false,
  reason: null,
  reason_internal: false,
  created_by_name: "Pat Admin",
  created_at: "2026-01-05T15:00:00.000Z",
  ...over,
});

describe("groupTerms: one entry per term", () => {
  it("folds a term's extensions into it, each with the date it replaced, and keeps renewals apart", () => {
    const terms = groupTerms(
      [
        row({ term_no: 1, kind: "original", expiration_date: "2027-12-01", ended_on: "2028-02-10" }),
        row({
          term_no: 1,
          kind: "extension",
          expiration_date: "2028-03-01",
          reason: "Agency backlog",
          ended_on: "2028-02-10",
          // 02:30 UTC on the 3rd is still the 2nd in Denver.
          created_at: "2027-11-03T02:30:00.000Z",
        }),
        row({ term_no: 1, kind: "extension", expiration_date: "2028-04-01", ended_on: "2028-02-10" }),
        row({ term_no: 2, kind: "renewal", expiration_date: "2029-03-01", renewal_fee: "150.00" }),
      ],
      "America/Denver",
    );
    expect(terms).toHaveLength(2);
    const [first, second] = terms;
    expect(first).toMatchObject({
      term_no: 1,
      kind: "original",
      expiration_date: "2028-04-01",
      ended_on: "2028-02-10",
    });
    expect(first!.extensions.map((e) => [e.previous_expiration_date, e.expiration_date])).toEqual([
      ["2027-12-01", "2028-03-01"],
      ["2028-03-01", "2028-04-01"],
    ]);
    expect(first!.extensions[0]).toMatchObject({ reason: "Agency backlog", extended_on: "2027-11-02" });
    expect(second).toMatchObject({ term_no: 2, kind: "renewal", renewal_fee: "150.00", extensions: [] });
  });

  it("gives a running term extended since no end, and an old earlier row's missing end never shows", () => {
    const [term] = groupTerms(
      [
        row({ term_no: 1, kind: "original", expiration_date: "2027-12-01", ended_on: null }),
        row({ term_no: 1, kind: "extension", expiration_date: "2028-03-01", ended_on: null }),
      ],
      "UTC",
    );
    expect(term!.ended_on).toBeNull();
    const [closed] = groupTerms(
      [
        row({ term_no: 1, kind: "original", expiration_date: "2027-12-01", ended_on: null }),
        row({ term_no: 1, kind: "extension", expiration_date: "2028-03-01", ended_on: "2028-01-15" }),
      ],
      "UTC",
    );
    expect(closed!.ended_on).toBe("2028-01-15");
  });

  it("ends a closed record's last term on its close date when no row says so (a released bond)", () => {
    const rows = [
      row({ term_no: 1, kind: "original", ended_on: "2027-03-01" }),
      row({ term_no: 2, kind: "renewal", ended_on: null }),
    ];
    expect(groupTerms(rows, "UTC", "2027-06-30").map((t) => t.ended_on)).toEqual([
      "2027-03-01",
      "2027-06-30",
    ]);
    expect(groupTerms(rows, "UTC", null).map((t) => t.ended_on)).toEqual(["2027-03-01", null]);
  });

  it("lets an extension without a term before it head its own", () => {
    const terms = groupTerms([row({ term_no: 3, kind: "extension", reason: "Imported" })], "UTC");
    expect(terms).toHaveLength(1);
    expect(terms[0]).toMatchObject({ term_no: 3, kind: "extension", reason: "Imported", extensions: [] });
  });
});
