import { describe, expect, it } from "vitest";
import { findAmounts, pickAmount } from "./amounts.ts";
import { findDates, isValidDate } from "./dates.ts";
import { fixOcrDigits, snippet, tidyName } from "./text.ts";

const one = (text: string, order: "MDY" | "DMY" = "MDY") => {
  const found = findDates(text, order);
  return found.length === 1 ? found[0] : found;
};

describe("findDates: the formats contractors see", () => {
  it.each([
    ["03/15/2026", "2026-03-15"],
    ["3/25/2026", "2026-03-25"],
    ["3/15/26", "2026-03-15"],
    ["2026-03-15", "2026-03-15"],
    ["2026/3/5", "2026-03-05"],
    ["March 15, 2026", "2026-03-15"],
    ["March 15 2026", "2026-03-15"],
    ["Mar. 15, 2026", "2026-03-15"],
    ["Mar 15th, 2026", "2026-03-15"],
    ["SEPT. 1, 2026", "2026-09-01"],
    ["15 Mar 2026", "2026-03-15"],
    ["15 March 2026", "2026-03-15"],
    ["15 March, 2026", "2026-03-15"],
    ["15-Mar-2026", "2026-03-15"],
    ["the 1st day of April, 2026", "2026-04-01"],
    ["03 / 15 / 2026", "2026-03-15"],
  ])("%s → %s", (text, value) => {
    expect(one(text)).toMatchObject({ value, ambiguous: false });
  });

  it("reads 03/04/2026 by the company's order and marks it ambiguous", () => {
    expect(one("03/04/2026", "MDY")).toMatchObject({ value: "2026-03-04", ambiguous: true });
    expect(one("03/04/2026", "DMY")).toMatchObject({ value: "2026-04-03", ambiguous: true });
  });

  it("does not mark a date with only one valid reading (13/04/2026) or two equal readings (04/04/2026)", () => {
    expect(one("13/04/2026", "MDY")).toMatchObject({ value: "2026-04-13", ambiguous: false, swapped: true });
    expect(one("13/04/2026", "DMY")).toMatchObject({ value: "2026-04-13", ambiguous: false, swapped: false });
    expect(one("04/13/2026", "DMY")).toMatchObject({ value: "2026-04-13", ambiguous: false });
    expect(one("04/04/2026", "DMY")).toMatchObject({ value: "2026-04-04", ambiguous: false });
  });

  it("rejects impossible dates", () => {
    for (const text of [
      "02/30/2026",
      "2026-02-29",
      "February 30, 2026",
      "31 Apr 2026",
      "13/13/2026",
      "00/10/2026",
      "2026-13-01",
    ])
      expect(findDates(text, "MDY"), text).toEqual([]);
    expect(one("2028-02-29")).toMatchObject({ value: "2028-02-29" });
    expect(isValidDate(2000, 2, 29)).toBe(true);
    expect(isValidDate(2100, 2, 29)).toBe(false);
  });

  it("maps two-digit years to 2000-2099 and never drops next year's dates", () => {
    expect(one("1/5/27")).toMatchObject({ value: "2027-01-05" });
    expect(one("12/31/99")).toMatchObject({ value: "2099-12-31" });
    expect(one("6/30/00")).toMatchObject({ value: "2000-06-30" });
    expect(one("12/31/1999")).toMatchObject({ value: "1999-12-31" });
    expect(one("January 2, 2031")).toMatchObject({ value: "2031-01-02" });
  });

  it("finds no date in relative phrases", () => {
    for (const text of [
      "within 14 days",
      "30 days after issuance",
      "one year from the date of issue",
      "valid for 180 days",
      "next Friday",
      "in 2 weeks",
      "by the end of March",
      "March 2026",
    ])
      expect(findDates(text, "MDY"), text).toEqual([]);
  });

  it("does not read a date inside an identifier or a longer number", () => {
    expect(findDates("BP-2026-0142", "MDY")).toEqual([]);
    expect(findDates("7700-1234-55", "MDY")).toEqual([]);
    expect(findDates("tel 555/12/2026", "MDY")).toEqual([]);
  });
});

describe("amounts", () => {
  it.each([
    ["$1,250,000", "1250000.00"],
    ["$1,250,000.00", "1250000.00"],
    ["$ 1,250,000.00", "1250000.00"],
    ["$1, 250,000.00", "1250000.00"],
    ["USD 25,000.50", "25000.50"],
    ["25,000.50 USD", "25000.50"],
    ["25.000,50 €", "25000.50"],
    ["€ 1.250.000,00", "1250000.00"],
    ["$25000", "25000.00"],
    ["$12,500.5", "12500.50"],
    ["$ 2 500 000.00", "2500000.00"],
    ["$1.250,000,00", "1250000.00"],
    ["25,50 €", "25.50"],
  ])("%s → %s", (text, value) => {
    expect(pickAmount(text)?.value).toBe(value);
  });

  it("reads nothing it could misread: 25.000 (25 or 25,000?), $25,50, $1,2345", () => {
    for (const text of ["25.000 €", "$25.000", "$25,50", "$1,2345", "$1,25"])
      expect(pickAmount(text), text).toBeNull();
  });

  it("takes the figures, not the 00/100 of the amount in words", () => {
    expect(pickAmount("Twenty-Five Thousand and 00/100 Dollars ($25,000.00)")?.value).toBe("25000.00");
  });

  it("needs a sign or an amount's format: a bare small number is no amount", () => {
    expect(pickAmount("within 14 days")).toBeNull();
    expect(findAmounts("1,250,000 and 2,000").map((a) => a.value)).toEqual(["1250000.00", "2000.00"]);
  });
});

describe("text helpers", () => {
  it("undoes the OCR's digit look-alikes inside numbers only, character for character", () => {
    expect(fixOcrDigits("BP-2O26-O142")).toBe("BP-2026-0142");
    expect(fixOcrDigits("O3/l5/2026")).toBe("03/15/2026");
    expect(fixOcrDigits("$ 1,25O,OOO.OO")).toBe("$ 1,250,000.00");
    expect(fixOcrDigits("Oct 15, ISO 9001, Hall 2, Ol")).toBe("Oct 15, ISO 9001, Hall 2, Ol");
    const noisy = "Issued lO/O3/2O26 to Lola";
    expect(fixOcrDigits(noisy)).toHaveLength(noisy.length);
  });

  it("tidies a name in capitals and keeps acronyms", () => {
    expect(tidyName("CITY OF SPRINGFIELD")).toBe("City of Springfield");
    expect(tidyName("COUNTY OF MARIN Department of Public Works")).toBe(
      "County of Marin Department of Public Works",
    );
    expect(tidyName("ABC Surety Co.")).toBe("ABC Surety Co.");
    expect(tidyName("  Northwind Surety & Insurance Co.,  ")).toBe("Northwind Surety & Insurance Co.");
  });

  it("keeps a snippet to about 120 characters around its label and value", () => {
    const line = `${"x".repeat(200)} Expiration Date: 03/15/2027 ${"y".repeat(200)}`;
    const from = line.indexOf("Expiration");
    const s = snippet(line, from, line.indexOf("2027") + 4);
    expect(s.length).toBeLessThanOrEqual(122);
    expect(s).toContain("Expiration Date: 03/15/2027");
  });
});
