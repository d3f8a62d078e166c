/**
 * Issue 28: what the document reader suggests from an uploaded file's text. Shared by the reader
 * (server/features/documents), the API and the suggestions panel (web/features/document-suggestions).
 * A suggestion is never written anywhere by itself: a person accepts it through the normal edit.
 */

export const SUGGESTION_FIELDS = [
  "permit_number",
  "issue_date",
  "expiration_date",
  "agency",
  "bond_number",
  "bond_amount",
  "surety_company",
  "rider_effective_date",
  "inspection_result",
  "inspection_date",
] as const;
export type SuggestionField = (typeof SUGGESTION_FIELDS)[number];

/** The labels the panel shows: the permit form's labels where the field is one of its own. */
export const SUGGESTION_FIELD_LABELS: Record<SuggestionField, string> = {
  permit_number: "Permit Number",
  issue_date: "Issue Date",
  expiration_date: "Expiration Date",
  agency: "Agency",
  bond_number: "Bond Number",
  bond_amount: "Bond Amount",
  surety_company: "Surety Company",
  rider_effective_date: "Rider Effective Date",
  inspection_result: "Inspection Result",
  inspection_date: "Inspection Date",
};

/** Fields whose value is a calendar date (YYYY-MM-DD). */
export const DATE_SUGGESTION_FIELDS: readonly SuggestionField[] = [
  "issue_date",
  "expiration_date",
  "rider_effective_date",
  "inspection_date",
];

/** The inspection results the reader recognises: the lifecycle's own ('Passed', 'Failed', 'Partial', 'Cancelled'). */
export { INSPECTION_RESULTS } from "./lifecycle.ts";

/** A company's way of writing a numeric date: 'MDY' reads 03/04/2026 as March 4, 'DMY' as 3 April. */
export const DATE_ORDERS = ["MDY", "DMY"] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];

export interface Suggestion {
  field: SuggestionField;
  /**
   * Normalised: a date as YYYY-MM-DD; an amount as a plain decimal with two places ("12500.00");
   * an inspection result as one of INSPECTION_RESULTS ('Passed', ...); anything else as the text read, trimmed.
   */
  value: string;
  /** The characters on the page the value was read from, e.g. "03/04/2026" or "$12,500.00". */
  raw: string;
  /** 1-based page number. */
  page: number;
  /** The text around the value (at most ~120 characters), with the label that found it. */
  snippet: string;
  /** 0..1: how sure the reader is (a label right before the value, the value's format, OCR or text layer). */
  confidence: number;
  /** A numeric date both of whose readings are valid (03/04/2026): `value` follows the company's date order. */
  ambiguous: boolean;
}

/** One page's text as read. */
export interface PageText {
  page: number;
  text: string;
  /** 'text': the PDF's text layer; 'ocr': recognised from the page's image. */
  source: "text" | "ocr";
}
