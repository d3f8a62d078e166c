import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv.ts";
import { importAmount, mapColumns, parseImportDate, validateRows } from "./rows.ts";

describe("import dates", () => {
  it("accepts ISO and US dates, and refuses impossible ones", () => {
    expect(parseImportDate("2026-03-01")).toBe("2026-03-01");
    expect(parseImportDate("3/1/2026")).toBe("2026-03-01");
    expect(parseImportDate("03/01/2026")).toBe("2026-03-01");
    expect(parseImportDate("02/30/2026")).toBeNull();
    expect(parseImportDate("2026-02-30")).toBeNull();
    expect(parseImportDate("1/3/26")).toBeNull();
    expect(parseImportDate("yesterday")).toBeNull();
  });

  it("accepts a date as the screens and the Excel export show it (an Excel export saved as CSV)", () => {
    expect(parseImportDate("Dec 1, 2027")).toBe("2027-12-01");
    expect(parseImportDate("Sep 30, 2027")).toBe("2027-09-30");
    expect(parseImportDate("December 1, 2027")).toBe("2027-12-01");
    expect(parseImportDate("dec 1, 2027")).toBe("2027-12-01");
    expect(parseImportDate("Feb 30, 2027")).toBeNull();
    expect(parseImportDate("Decem 1, 2027")).toBeNull();
    expect(parseImportDate("Dec 1 2027")).toBeNull();
  });
});

describe("import amounts", () => {
  it("reads plain amounts and amounts in a currency as the Excel export shows them", () => {
    expect(importAmount("1250.50")).toBe("1250.50");
    expect(importAmount("1,250.50")).toBe("1250.50");
    expect(importAmount("$565,263.00")).toBe("565263.00");
    expect(importAmount("€62,500.50")).toBe("62500.50");
    expect(importAmount("CA$1,000.00")).toBe("1000.00");
    expect(importAmount("CHF\u00a01,000.00")).toBe("1000.00");
    expect(importAmount("USD 1,000")).toBe("1000");
    // Anything else is left for the amount's own check to refuse.
    expect(importAmount("-5")).toBe("-5");
    expect(importAmount("abc1000")).toBe("abc1000");
    expect(importAmount("$ten")).toBe("$ten");
  });
});

describe("import rows", () => {
  it("reads the export's extra columns and removes its formula guard", () => {
    const csv =
      'project,start_date,permit_number,permit_name,bond_amount,guarantee_type,close_date\nP,2026-01-01,B-1,\'=SUM(A1),"1,250.50",maintenance,2026-05-01\nP,2026-01-01,B-2,x,-5,Weekly,';
    const { valid, rejected } = validateRows(parseCsv(csv));
    expect(valid[0]).toMatchObject({
      permitName: "=SUM(A1)",
      bondAmount: "1250.50",
      guaranteeType: "Maintenance",
      closeDate: "2026-05-01",
    });
    expect(rejected[0]!.reason).toMatch(/bond_amount '-5'.*; guarantee_type 'Weekly'/);
  });

  it("reads the words the export writes: record type, expiry rule and bond status labels, dates and amounts as shown", () => {
    const csv = [
      "Project,Start Date,Permit Number,Record Type,Bond Amount,Current Amount,Bond Status,Guarantee Type,Expiry Rule,Expiry Days,Expiration Date",
      'P,"Jan 5, 2026",B-1,Bond / Guarantee,"$565,263.00","$282,631.50",Reduced,Performance,Days after last passed inspection,180,"Dec 1, 2027"',
      'P,"Jan 5, 2026",P-1,Permit,,,,,Fixed date,,"Dec 31, 2026"',
    ].join("\n");
    const { valid, rejected } = validateRows(parseCsv(csv));
    expect(rejected).toEqual([]);
    expect(valid[0]).toMatchObject({
      recordType: "bond",
      bondAmount: "565263.00",
      expiryRule: "after_inspection",
      startDate: "2026-01-05",
      expirationDate: "2027-12-01",
    });
    expect(valid[0]!.ledger.at(-1)).toMatchObject({ status: "reduced", amountAfter: "282631.50" });
    expect(valid[1]).toMatchObject({
      recordType: "permit",
      expiryRule: "fixed",
      expirationDate: "2026-12-31",
    });
  });

  it("forgives case and spacing in the header and refuses a header without the required columns", () => {
    expect(mapColumns([" Project ", "START DATE", "Permit-Number"]).get("permit_number")).toBe(2);
    expect(() => mapColumns(["name", "date"])).toThrow(/missing: project, start_date, permit_number/);
  });

  it("converts good rows and rejects bad ones with their row numbers and reasons", () => {
    const csv = [
      "project,start_date,permit_number,permit_name,record_type,status,expiration_date,client",
      "Main St,2026-01-05,BP-1,Building,permit,,2026-12-31,Acme",
      ",2026-01-05,BP-2,Missing project,,,,",
      "Main St,13/45/2026,BP-3,Bad date,,,,",
      "Main St,1/5/2026,BD-4,Bond,guarantee,pending,,",
      "Main St,2026-01-05,BP-5,Odd type,license,,,",
      "Main St,2026-06-01,BP-6,Backwards,,,2026-01-01,",
      "Main St,2026-01-05,BP-7,Odd status,,Lapsed,,",
    ].join("\n");
    const { valid, rejected } = validateRows(parseCsv(csv));
    expect(valid.map((v) => [v.row, v.permitNumber, v.recordType, v.status, v.startDate])).toEqual([
      [2, "BP-1", "permit", "Required", "2026-01-05"],
      [5, "BD-4", "bond", "Pending", "2026-01-05"],
    ]);
    expect(valid[0]).toMatchObject({ client: "Acme", expirationDate: "2026-12-31", permitName: "Building" });
    expect(rejected).toEqual([
      { row: 3, reason: "Row 3: Missing required fields" },
      { row: 4, reason: "Row 4: start_date '13/45/2026' is not a date (use YYYY-MM-DD or MM/DD/YYYY)" },
      { row: 6, reason: "Row 6: record_type 'license' must be permit, bond or guarantee" },
      { row: 7, reason: "Row 7: expiration_date is before start_date" },
      { row: 8, reason: expect.stringMatching(/^Row 8: status 'Lapsed' must be one of/) },
    ]);
  });
});
