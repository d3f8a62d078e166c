/**
 * The suggester against what an OCR gives: digit look-alikes, slips in labels, and pages of garbage
 * (no pattern may backtrack over a long run), within the time budget (< 5 ms a page).
 */
import { describe, expect, it } from "vitest";
import {
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

describe("OCR", () => {
  it("reads through the OCR's O for 0, l for 1 and stray spaces, a little less sure", () => {
    const clean = byField(
      suggest("Permit No.: BP-2026-0142\nIssue Date: 03/15/2026\nBond Amount: $1,250,000.00", "MDY", "text"),
    );
    const noisy = byField(
      suggest("Perm1t N0.: BP-2O26-O142\nlssue Date: O3/l5/2026\nBond Amount: $ l,25O,OOO.OO", "MDY", "ocr"),
    );
    for (const field of ["permit_number", "issue_date", "bond_amount"] as const) {
      expect(noisy[field]?.value, field).toBe(clean[field]?.value);
      expect(noisy[field]!.confidence, field).toBeLessThan(clean[field]!.confidence);
    }
    expect(noisy.issue_date!.raw).toBe("O3/l5/2026");
    const sameTextByOcr = byField(suggest("Issue Date: 03/15/2026", "MDY", "ocr")).issue_date!;
    expect(sameTextByOcr.confidence).toBeLessThan(clean.issue_date!.confidence);
    expect(sameTextByOcr.confidence).toBeGreaterThan(0.8);
  });
});

describe("OCR's slips in labels", () => {
  it("reads 'Vaid Through', 'Surety!' and 'Cily of'", () => {
    expect(
      values(
        suggest(
          "Vaid Through; 2026-08-31\nSurety! Travelers Casualty and Surety Company of America\nAgency Cily of Springfield",
          "MDY",
          "ocr",
        ),
      ),
    ).toEqual({
      expiration_date: "2026-08-31",
      surety_company: "Travelers Casualty and Surety Company of America",
      agency: "City of Springfield",
    });
  });

  it("reads 'Penmit#', 'Band Number', 'Expiratlon Date;', 'lssued'", () => {
    expect(
      values(
        suggest(
          "Penmit#: ENC-26-1187\nBand Number: 5123-448\nExpiratlon Date; 2026-08-31\nlssued: 2026-02-02",
          "MDY",
          "ocr",
        ),
      ),
    ).toEqual({
      permit_number: "ENC-26-1187",
      bond_number: "5123-448",
      expiration_date: "2026-08-31",
      issue_date: "2026-02-02",
    });
  });
});

describe("speed", () => {
  it("reads a page in well under 5 ms", () => {
    const pages = SAMPLE_TEXTS.flatMap((s) => s.pages);
    const long = {
      page: 1,
      text: Array.from({ length: 8 }, () => pages.map((p) => p.text).join("\n")).join("\n"),
      source: "text" as const,
    };
    suggestFields(pages, { dateOrder: "MDY" }); // warm
    const t0 = performance.now();
    const rounds = 20;
    for (let i = 0; i < rounds; i++) suggestFields(pages, { dateOrder: "MDY" });
    expect((performance.now() - t0) / rounds / pages.length).toBeLessThan(5);
    const t1 = performance.now();
    suggestFields([long], { dateOrder: "MDY" }); // ~ 800 lines on one page (a busy CI machine: room to spare; here ~ 10-40 ms)
    expect(performance.now() - t1).toBeLessThan(400);
  });

  it("stays linear on an OCR's garbage (no pattern backtracks over a long run)", () => {
    for (const garbage of [
      "$" + "1 ".repeat(30_000),
      "1/".repeat(30_000),
      "1,".repeat(20_000),
      ("Permit" + " ".repeat(100)).repeat(600),
    ]) {
      const t = performance.now();
      suggestFields([{ page: 1, text: garbage, source: "ocr" }], { dateOrder: "MDY" });
      expect(performance.now() - t).toBeLessThan(1000);
    }
  });
});
