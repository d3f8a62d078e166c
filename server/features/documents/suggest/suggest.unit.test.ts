import { describe, expect, it } from "vitest";
import {
  DATE_SUGGESTION_FIELDS,
  type DateOrder,
  type Suggestion,
  type SuggestionField,
} from "../../../../shared/domain/document-reading.ts";
import { suggestFields } from "./index.ts";
import { SAMPLE_TEXTS } from "./sample-texts.ts";

const suggest = (text: string, dateOrder: DateOrder = "MDY", source: "text" | "ocr" = "text") =>
  suggestFields([{ page: 1, text, source }], { dateOrder });
const byField = (list: Suggestion[]) =>
  Object.fromEntries(list.map((s) => [s.field, s])) as Partial<Record<SuggestionField, Suggestion>>;
const values = (list: Suggestion[]) => Object.fromEntries(list.map((s) => [s.field, s.value]));

describe("suggestFields over realistic documents", () => {
  it.each(SAMPLE_TEXTS.map((s) => [s.name, s] as const))(
    "%s: every stated field, no other date",
    (_, sample) => {
      const got = suggestFields(sample.pages, { dateOrder: sample.dateOrder });
      const found = byField(got);
      for (const [field, value] of Object.entries(sample.expected))
        expect(found[field as SuggestionField]?.value, field).toBe(value);
      for (const s of got) {
        if (DATE_SUGGESTION_FIELDS.includes(s.field))
          expect(sample.expected[s.field], `unexpected ${s.field} ${s.value}`).toBe(s.value);
        expect(s.confidence).toBeGreaterThan(0);
        expect(s.confidence).toBeLessThanOrEqual(1);
        expect(s.snippet.length).toBeLessThanOrEqual(122);
        expect(s.page).toBeGreaterThanOrEqual(1);
      }
    },
  );

  it("gives one suggestion per field at most, in SUGGESTION_FIELDS' order", () => {
    for (const sample of SAMPLE_TEXTS) {
      const fields = suggestFields(sample.pages, { dateOrder: sample.dateOrder }).map((s) => s.field);
      expect(new Set(fields).size).toBe(fields.length);
    }
    const fields = suggestFields(SAMPLE_TEXTS[0]!.pages, { dateOrder: "MDY" }).map((s) => s.field);
    expect(fields).toEqual(["permit_number", "issue_date", "expiration_date", "agency"]);
  });

  it("says where each value came from: the characters read, the page, a snippet with the label", () => {
    const card = byField(suggestFields(SAMPLE_TEXTS[0]!.pages, { dateOrder: "MDY" }));
    expect(card.issue_date).toMatchObject({ raw: "03/15/2026", page: 1, ambiguous: false });
    expect(card.issue_date!.snippet).toContain("Issue Date: 03/15/2026");
    expect(card.issue_date!.confidence).toBeGreaterThanOrEqual(0.9);
    const twoPages = SAMPLE_TEXTS.find((s) => s.name.includes("two pages"))!;
    expect(byField(suggestFields(twoPages.pages, { dateOrder: "MDY" })).agency).toMatchObject({
      page: 2,
      snippet: "Issuing Authority: Greenfield Planning Board",
    });
  });

  it("is pure and deterministic", () => {
    for (const sample of SAMPLE_TEXTS)
      expect(suggestFields(sample.pages, { dateOrder: sample.dateOrder })).toEqual(
        suggestFields(sample.pages, { dateOrder: sample.dateOrder }),
      );
    expect(suggestFields([], { dateOrder: "MDY" })).toEqual([]);
    expect(suggest("   \n\n  ")).toEqual([]);
  });
});

describe("no relative phrase becomes a date", () => {
  it.each([
    "Expires: within 14 days",
    "Expiration Date: 30 days after issuance",
    "Expires one year from the date of issue",
    "Valid Through: 180 days",
    "This permit is valid for 180 days.",
    "Inspection Date: next Friday",
    "Effective Date: upon execution of this rider",
    "Issued: on approval",
    "Expires: 30 days after 03/01/2026",
    "Expiration: one year from March 1, 2026",
    "Valid Until: 90 days following 2026-03-01",
    "Expires: 03/01/2026 + 90 days",
    "Expiration Date: 03/01/2026 plus one year",
    "Expires: no later than 30 days before 03/01/2027",
    "Expires: six months prior to 2027-03-01",
  ])("%s → no date", (text) => {
    const got = suggest(`RIDER\n${text}`);
    expect(got.filter((s) => DATE_SUGGESTION_FIELDS.includes(s.field))).toEqual([]);
  });

  it("keeps an absolute deadline said in words: 'on or before', 'no later than'", () => {
    expect(values(suggest("Expires: on or before 03/01/2027")).expiration_date).toBe("2027-03-01");
    expect(values(suggest("Valid Through: no later than March 1, 2027")).expiration_date).toBe("2027-03-01");
  });

  it("does not take the next line's date for a label whose own line says something else", () => {
    const got = values(suggest("Expires: one year after final inspection\nInspection Date: 04/22/2026"));
    expect(got.expiration_date).toBeUndefined();
    expect(got.inspection_date).toBe("2026-04-22");
  });
});

describe("dates", () => {
  it("follows the company's date order on 03/04/2026 and marks it ambiguous", () => {
    const mdy = byField(suggest("Issue Date: 03/04/2026", "MDY")).issue_date!;
    const dmy = byField(suggest("Issue Date: 03/04/2026", "DMY")).issue_date!;
    expect(mdy).toMatchObject({ value: "2026-03-04", ambiguous: true });
    expect(dmy).toMatchObject({ value: "2026-04-03", ambiguous: true });
    const clear = byField(suggest("Issue Date: 03/15/2026")).issue_date!;
    expect(mdy.confidence).toBeLessThan(clear.confidence);
  });

  it("reads 13/04/2026 as 13 April whatever the order, not ambiguous", () => {
    for (const order of ["MDY", "DMY"] as const)
      expect(byField(suggest("Expires: 13/04/2026", order)).expiration_date).toMatchObject({
        value: "2026-04-13",
        ambiguous: false,
      });
  });

  it("suggests no impossible date", () => {
    expect(suggest("Expiration Date: 02/30/2026\nIssue Date: 2026-02-29")).toEqual([]);
  });

  it("reads two-digit years as 20xx, next year's included", () => {
    const got = values(suggest("Issued: 12/01/26   Expires: 11/30/27"));
    expect(got).toMatchObject({ issue_date: "2026-12-01", expiration_date: "2027-11-30" });
    expect(values(suggest("Expires: 1/15/99")).expiration_date).toBe("2099-01-15");
  });

  it("takes four-digit years as written", () => {
    expect(values(suggest("Issued: 06/01/2019   Expires: 06/01/2031"))).toMatchObject({
      issue_date: "2019-06-01",
      expiration_date: "2031-06-01",
    });
  });

  it("reads each of the written formats after its label", () => {
    const got = values(
      suggest(`RIDER
Issue Date: Mar. 5, 2026
Expiration Date: 15 March 2027
Effective Date: 2026-04-01
Inspection Date: 15 Apr 2026`),
    );
    expect(got).toMatchObject({
      issue_date: "2026-03-05",
      expiration_date: "2027-03-15",
      rider_effective_date: "2026-04-01",
      inspection_date: "2026-04-15",
    });
  });
});

describe("labels by nearness", () => {
  it("reads a value on the line below its label", () => {
    const got = byField(suggest("Expiration Date:\n03/15/2027\nPermit Number\n\nBP-77-1200"));
    expect(got.expiration_date).toMatchObject({
      value: "2027-03-15",
      snippet: "Expiration Date: 03/15/2027",
    });
    expect(got.permit_number?.value).toBe("BP-77-1200");
    // Below is a little less sure than beside.
    expect(got.expiration_date!.confidence).toBeLessThan(
      byField(suggest("Expiration Date: 03/15/2027")).expiration_date!.confidence,
    );
  });

  it("reads a table's header over its row, with or without the columns' gaps", () => {
    for (const text of [
      "Permit No.     Issue Date     Expires\nBP-2026-0142   03/15/2026     03/15/2027",
      "Permit No. Issue Date Expires\nBP-2026-0142 03/15/2026 03/15/2027",
    ])
      expect(values(suggest(text)), text).toEqual({
        permit_number: "BP-2026-0142",
        issue_date: "2026-03-15",
        expiration_date: "2027-03-15",
      });
  });

  it("reads a form whose OCR gave the labels' column, then the values' column", () => {
    const text =
      "Permit No.\nDate Issued\nExpiration Date\nOwner\n\nBP-2026-0142\n03/15/2026\n09/11/2026\nHarbor Point LLC";
    const got = byField(suggest(text, "MDY", "ocr"));
    expect(values(Object.values(got))).toEqual({
      permit_number: "BP-2026-0142",
      issue_date: "2026-03-15",
      expiration_date: "2026-09-11",
    });
    expect(got.expiration_date!.snippet).toBe("Expiration Date 09/11/2026");
  });

  it("does not take the next label's value for a label left blank", () => {
    const got = values(suggest("Permit No.:\nIssue Date: 03/15/2026"));
    expect(got).toEqual({ issue_date: "2026-03-15" });
  });

  it("tells 'Issued By' (the agency) from 'Issued' (the date)", () => {
    expect(values(suggest("Issued By: City of Springfield\nIssued: 04/01/2026"))).toEqual({
      agency: "City of Springfield",
      issue_date: "2026-04-01",
    });
  });

  it("reads the other label forms", () => {
    expect(
      values(
        suggest(
          "Application No. 2026-000123\nDate Issued 04/02/2026\nValid Until 04/02/2027\nIssuing Authority: Village of Oak Park",
        ),
      ),
    ).toEqual({
      permit_number: "2026-000123",
      issue_date: "2026-04-02",
      expiration_date: "2027-04-02",
      agency: "Village of Oak Park",
    });
    expect(values(suggest("Approved On: April 2, 2026\nExpiry: April 2, 2027\nBond #: 55-1200-A"))).toEqual({
      issue_date: "2026-04-02",
      expiration_date: "2027-04-02",
      bond_number: "55-1200-A",
    });
  });

  it("reads a value glued to a label ending in '#' or '.', not a word glued to a label's last letter", () => {
    expect(values(suggest("Permit #BP2026-00417 issued 2026-03-15, expires 2027-03-15."))).toEqual({
      permit_number: "BP2026-00417",
      issue_date: "2026-03-15",
      expiration_date: "2027-03-15",
    });
    expect(values(suggest("Bond No.55-1200"))).toEqual({ bond_number: "55-1200" });
    // "Permit Notice" is no "Permit No": the number is found by its format alone, with little confidence.
    expect(byField(suggest("Permit Notice 2026-000123")).permit_number!.confidence).toBeLessThan(0.5);
  });

  it("prefers a labelled permit number to one found by its format alone", () => {
    const got = byField(suggest("ENCROACHMENT PERMIT   EP-26-00999\nPermit No.: EP-26-00317"));
    expect(got.permit_number).toMatchObject({ value: "EP-26-00317" });
    expect(values(suggest("Permit questions: call (415) 473-6528 or 415-473-6500"))).toEqual({});
    const alone = byField(suggest("ENCROACHMENT PERMIT   EP-26-00999")).permit_number!;
    expect(alone.value).toBe("EP-26-00999");
    expect(alone.confidence).toBeLessThan(0.5);
  });

  it("keeps ties deterministic: the earlier page and position win", () => {
    const got = suggestFields(
      [
        { page: 1, text: "Permit No.: A-100", source: "text" },
        { page: 2, text: "Permit No.: B-200", source: "text" },
      ],
      { dateOrder: "MDY" },
    );
    expect(got[0]).toMatchObject({ value: "A-100", page: 1 });
  });
});

describe("bonds and riders", () => {
  it("takes the rider's new amount over the old one", () => {
    for (const text of [
      "RIDER\nBond No. 123456\nThe penal sum is increased from $100,000.00 to $150,000.00.",
      "RIDER\nPenal Sum: $100,000.00\nThe penal sum is hereby increased to $150,000.00",
      "RIDER\nOriginal Penal Sum: $100,000.00\nNew Penal Sum: $150,000.00",
      "RIDER\nNew Penal Sum: $150,000.00\nPrevious Bond Amount: $100,000.00",
      "RIDER\nIt is agreed that the penal sum of the bond is hereby changed\nfrom $100,000.00 to\n$150,000.00 effective as of April 1, 2026.",
    ])
      expect(values(suggest(text)).bond_amount, text).toBe("150000.00");
  });

  it("reads amounts with separators and signs", () => {
    expect(values(suggest("Bond Amount: $1,250,000")).bond_amount).toBe("1250000.00");
    expect(values(suggest("Amount of Bond: USD 25,000.50")).bond_amount).toBe("25000.50");
    expect(values(suggest("Penal Sum: 25.000,50 €")).bond_amount).toBe("25000.50");
    expect(
      values(suggest("Penal Sum: Twenty-Five Thousand and 00/100 Dollars ($25,000.00)")).bond_amount,
    ).toBe("25000.00");
  });

  it("names the surety from its label or from 'as Surety'", () => {
    expect(values(suggest("Surety Company: Great Lakes Casualty Company")).surety_company).toBe(
      "Great Lakes Casualty Company",
    );
    expect(
      values(
        suggest(
          "that Acme Builders LLC, as Principal, and Hartwell Fidelity Insurance Co., as Surety, are held",
        ),
      ).surety_company,
    ).toBe("Hartwell Fidelity Insurance Co.");
    // "Surety" inside a sentence or a company's name is no label.
    expect(
      values(suggest("The Surety hereby consents to this change.\nPaid to Great Lakes Surety Company today")),
    ).toEqual({});
  });

  it("gives a rider's effective date only on a rider or a continuation certificate", () => {
    expect(values(suggest("RIDER\nEffective Date: 04/15/2026")).rider_effective_date).toBe("2026-04-15");
    expect(
      values(suggest("CONTINUATION CERTIFICATE\nThis bond is continued effective as of May 1, 2026."))
        .rider_effective_date,
    ).toBe("2026-05-01");
    expect(
      values(suggest("BUILDING PERMIT\nEffective Date: 04/15/2026")).rider_effective_date,
    ).toBeUndefined();
    expect(
      values(suggest("CONTINUATION CERTIFICATE\nThe bond is continued in force to March 1, 2028.")),
    ).toEqual({
      expiration_date: "2028-03-01",
    });
  });
});

describe("inspections", () => {
  it.each([
    ["Result: Passed", "Passed"],
    ["Result: APPROVED", "Passed"],
    ["Result: Failed", "Failed"],
    ["Result: Rejected", "Failed"],
    ["Result: Disapproved", "Failed"],
    ["Result: Not Approved", "Failed"],
    ["Result: NOT PASSED", "Failed"],
    ["Result: Partial", "Partial"],
    ["Inspection Result: Partial Approval", "Partial"],
    ["Status: Cancelled", "Cancelled"],
    ["Status: Canceled", "Cancelled"],
  ])("%s → %s", (line, value) => {
    expect(values(suggest(`INSPECTION REPORT\nInspection Date: 05/02/2026\n${line}`)).inspection_result).toBe(
      value,
    );
  });

  it("needs an inspection document for a result, and a label or a ticked box", () => {
    expect(values(suggest("BUILDING PERMIT\nStatus: Approved")).inspection_result).toBeUndefined();
    expect(
      values(suggest("INSPECTION REPORT\nThe result of the review was approved by the board."))
        .inspection_result,
    ).toBeUndefined();
    expect(values(suggest("INSPECTION REPORT\n[ ] Passed  [X] Failed")).inspection_result).toBe("Failed");
  });
});
