import type { DateOrder, PageText, SuggestionField } from "../../../../shared/domain/document-reading.ts";

/**
 * Documents' text as the reader gives it (a text layer's lines, an OCR's noisier ones), with the values
 * a person would type off them. The suggester's unit tests and its benchmark
 * (scripts/bench/document-suggestions.ts) read them; production code never does.
 * `expected` names every field the document states: a field it does not name must not be suggested
 * when it is a date (no wrong date), and is counted as a false positive otherwise.
 */
export interface SampleText {
  name: string;
  pages: PageText[];
  dateOrder: DateOrder;
  expected: Partial<Record<SuggestionField, string>>;
}

const text = (...pages: string[]): PageText[] =>
  pages.map((t, i) => ({ page: i + 1, text: t, source: "text" }));
const ocr = (...pages: string[]): PageText[] =>
  pages.map((t, i) => ({ page: i + 1, text: t, source: "ocr" }));

const CITY_CARD = `CITY OF SPRINGFIELD
Department of Building and Safety
BUILDING PERMIT
Permit No.: BP-2026-0142                 Issue Date: 03/15/2026
Project Address: 1200 Industrial Pkwy, Springfield
Work Description: Tenant improvement, 2nd floor offices
Expiration Date: 09/11/2026
Valuation: $250,000.00
This permit shall expire if work is not commenced within 180 days.
Inspections must be requested 24 hours in advance.`;

const CITY_CARD_EXPECTED = {
  permit_number: "BP-2026-0142",
  issue_date: "2026-03-15",
  expiration_date: "2026-09-11",
  agency: "City of Springfield Department of Building and Safety",
};

const COUNTY_ENCROACHMENT = `COUNTY OF MARIN
DEPARTMENT OF PUBLIC WORKS
ENCROACHMENT PERMIT
Permit Number        Date Issued        Valid Through
EP-26-00317          15 Apr 2026        14 Oct 2026
Permittee: Acme Builders LLC
Location: Sir Francis Drake Blvd at Lagunitas Rd
Conditions: Permittee shall notify the inspector 48 hours before starting work.
Work shall be completed within 30 days of start. Traffic control per Caltrans MUTCD 2014.
Bond Amount: $25,000`;

const COUNTY_EXPECTED = {
  permit_number: "EP-26-00317",
  issue_date: "2026-04-15",
  expiration_date: "2026-10-14",
  agency: "County of Marin Department of Public Works",
  bond_amount: "25000.00",
};

const RIDER = `RIDER
To be attached to and form a part of Bond No. SUR-884512
issued by Great Lakes Casualty Company, as Surety,
on behalf of Acme Builders LLC, as Principal,
in favor of City of Springfield, as Obligee.
It is hereby understood and agreed that the penal sum of the bond is hereby increased
from $100,000.00 to $150,000.00 (One Hundred Fifty Thousand and 00/100 Dollars).
Effective Date of this Rider: April 1, 2026
All other terms and conditions of the bond remain unchanged.
Signed, sealed and dated this 20th day of March, 2026.
Great Lakes Casualty Company
By: Jane Doe, Attorney-in-Fact`;

const RIDER_EXPECTED = {
  bond_number: "SUR-884512",
  bond_amount: "150000.00",
  surety_company: "Great Lakes Casualty Company",
  rider_effective_date: "2026-04-01",
};

const CONTINUATION = `CONTINUATION CERTIFICATE
Bond Number: 7700-1234-55
Principal: Acme Builders LLC
Obligee: County of Marin
Surety: Northwind Surety & Insurance Co.
Bond Amount: USD 25,000.50
The Surety hereby continues the above bond in force for the period from 06/01/2026 to 06/01/2027,
subject to all covenants and conditions of the bond.
Effective as of June 1, 2026.`;

const CONTINUATION_EXPECTED = {
  bond_number: "7700-1234-55",
  surety_company: "Northwind Surety & Insurance Co.",
  bond_amount: "25000.50",
  rider_effective_date: "2026-06-01",
  expiration_date: "2027-06-01",
  agency: "County of Marin",
};

const INSPECTION = `CITY OF SPRINGFIELD
BUILDING INSPECTION REPORT
Permit #: BP-2026-0142
Inspection Type: Framing
Date of Inspection: 4/22/26
Inspector: R. Alvarez
Result: PARTIAL APPROVAL
Comments: Re-inspect north wall within 5 business days.`;

const INSPECTION_EXPECTED = {
  permit_number: "BP-2026-0142",
  inspection_date: "2026-04-22",
  inspection_result: "Partial",
  agency: "City of Springfield",
};

export const SAMPLE_TEXTS: SampleText[] = [
  { name: "city permit card", pages: text(CITY_CARD), dateOrder: "MDY", expected: CITY_CARD_EXPECTED },
  {
    name: "county encroachment permit",
    pages: text(COUNTY_ENCROACHMENT),
    dateOrder: "MDY",
    expected: COUNTY_EXPECTED,
  },
  { name: "bond rider", pages: text(RIDER), dateOrder: "MDY", expected: RIDER_EXPECTED },
  {
    name: "continuation certificate",
    pages: text(CONTINUATION),
    dateOrder: "MDY",
    expected: CONTINUATION_EXPECTED,
  },
  { name: "inspection report", pages: text(INSPECTION), dateOrder: "MDY", expected: INSPECTION_EXPECTED },
  {
    name: "relative phrases only",
    pages: text(`NOTICE OF PERMIT CONDITIONS
This permit expires one year from the date of issue.
Expires: 30 days after issuance
Work must begin within 14 days of approval.
Valid Through: 180 days from the date of issue
Final inspection is due 30 days after issuance; the permit is valid for 180 days.
Next inspection: next Friday.
Inspection Date: to be scheduled within 5 working days`),
    dateOrder: "MDY",
    expected: {},
  },
  {
    name: "permit card, labels above their values, two pages",
    pages: text(
      `Town of Greenfield
Permit Application No.
2026-000731
Approved On
  January 5, 2026
Expires
  1/5/27`,
      `Page 2
Conditions of approval
Issuing Authority:
Greenfield Planning Board`,
    ),
    dateOrder: "MDY",
    expected: {
      permit_number: "2026-000731",
      issue_date: "2026-01-05",
      expiration_date: "2027-01-05",
      agency: "Greenfield Planning Board",
    },
  },
  {
    name: "day-first permit (DMY company)",
    pages: text(`Permit No. 2026/771
Issued: 03/04/2026      Expires: 13/04/2027
Issuing Authority: Borough of Kingsbridge`),
    dateOrder: "DMY",
    expected: {
      permit_number: "2026/771",
      issue_date: "2026-04-03",
      expiration_date: "2027-04-13",
      agency: "Borough of Kingsbridge",
    },
  },
  {
    name: "city permit card (OCR)",
    pages: ocr(`C1TY OF SPRINGFIELD
Department of Building and Safety
BUILDING PERMIT
Perm1t N0.: BP-2O26-O142     lssue Date: O3/l5/2026
Project Address: l200 Industrial Pkwy, Springfield
Expiration
Date: 09 / 11 / 2026
This permit shall expire if work is not commenced within l80 days.`),
    dateOrder: "MDY",
    expected: { permit_number: "BP-2026-0142", issue_date: "2026-03-15", expiration_date: "2026-09-11" },
  },
  {
    name: "bond rider (OCR)",
    pages: ocr(`RIDER
To be attached to and form a part of
Bond N0. SUR-8845l2
Surety:
GREAT LAKES CASUALTY COMPANY
Previous Penal Sum: $ l00,OOO.OO
New Penal Sum: $ 1,25O,OOO.OO
This rider is effective as of 12:01 a.m. on
March 3l, 2026`),
    dateOrder: "MDY",
    expected: {
      bond_number: "SUR-884512",
      surety_company: "Great Lakes Casualty Company",
      bond_amount: "1250000.00",
      rider_effective_date: "2026-03-31",
    },
  },
  {
    name: "inspection report with ticked boxes (OCR)",
    pages: ocr(`COUNTY OF MARIN
Department of Public Works
FIELD INSPECTION RECORD
Permit No: EP-26-00317
Inspection Date: 15-May-2026
[ ] PASSED   [X] FAILED   [ ] PARTIAL   [ ] CANCELLED
Corrections: replace damaged curb before re-inspection.`),
    dateOrder: "MDY",
    expected: {
      permit_number: "EP-26-00317",
      inspection_date: "2026-05-15",
      inspection_result: "Failed",
      agency: "County of Marin Department of Public Works",
    },
  },
  {
    name: "performance bond (European amount)",
    pages: text(`PERFORMANCE BOND
Bond #: PB 55120
KNOW ALL BY THESE PRESENTS, that Acme Builders LLC, as Principal, and Atlantic Indemnity Company,
a New York corporation, as Surety, are held and firmly bound unto the City of Springfield, as Obligee,
Penal Sum: 25.000,50 €
Date Issued: 2026-02-10`),
    dateOrder: "MDY",
    expected: {
      bond_number: "PB 55120",
      surety_company: "Atlantic Indemnity Company",
      bond_amount: "25000.50",
      issue_date: "2026-02-10",
    },
  },
];

/**
 * A page as a poor scan's OCR gives it, deterministically: '0' read as 'O' and '1' as 'l' inside
 * numbers (every other one), a stray space after a date's first slash and after a currency sign, an
 * 'I' at a word's start read as 'l', and a form's value (after a tab) dropped to the line below its label
 * on every other such line. Real OCR of the generated fixtures is cleaner than this.
 */
export function simulateOcr(lines: string[]): string {
  let k = 0;
  const out: string[] = [];
  for (const line of lines) {
    let t = line
      .replace(/\d[\d,./-]*\d/g, (run) => run.replace(/[01]/g, (d) => (k++ % 2 ? d : d === "0" ? "O" : "l")))
      .replace(/\b(\d{1,2})\/(\d{1,2}\/\d{2,4})\b/g, "$1/ $2")
      .replace(/\$(?=\d)/g, "$ ")
      .replace(/\bI(?=[a-z])/g, "l");
    if (t.includes("\t")) {
      const [label, ...rest] = t.split("\t");
      t = k++ % 2 ? `${label}\n${rest.join(" ")}` : `${label} ${rest.join(" ")}`;
    }
    out.push(t);
  }
  return out.join("\n");
}
