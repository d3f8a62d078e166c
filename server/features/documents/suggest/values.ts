import type { DateOrder } from "../../../../shared/domain/document-reading.ts";
import { pickAmount } from "./amounts.ts";
import { findDates, MOVED_AFTER, RELATIVE_WORDS } from "./dates.ts";
import { tidyName } from "./text.ts";

/**
 * A value of one kind read from the text after its label (the "segment": the rest of the line up to the
 * next label, or the next line). Offsets are the segment's; the caller maps them to the page.
 */
export type ValueKind = "id" | "date" | "amount" | "name" | "result";

export interface ReadValue {
  value: string;
  start: number;
  end: number;
  /** Words between the label and the value ("on", "of this rider"): the further, the less sure. */
  gapWords: number;
  ambiguous: boolean;
  /** The date order decided it only because the other reading was impossible. */
  swapped: boolean;
}

/** Separators between a label and its value: "Permit No.: ", "Bond # - ", "Expires — ". */
/** A colon read as '!' or ';' by the OCR included. */
const LEAD = /^[\s:;!#.=\-–—>)\]|]*/;
const words = (s: string) => (s.match(/[A-Za-z]{2,}/g) ?? []).length;

const ID = /^(?:[A-Za-z]{1,6} (?=\d))?[A-Za-z0-9]+(?:(?: ?- ?|[/.])[A-Za-z0-9]+)*/;

function readId(segment: string, order: DateOrder): ReadValue | null {
  const start = LEAD.exec(segment)![0].length;
  const m = ID.exec(segment.slice(start));
  if (!m) return null;
  let token = m[0].trimEnd();
  // A number written with spaces as groups, or a word glued in front: "BP 2026-0142" keeps its space.
  token = token.replace(/[.\-/]+$/, "");
  const value = token.replace(/\s*([-/.])\s*/g, "$1").replace(/\s+/g, " ");
  if (value.replace(/[^A-Za-z0-9]/g, "").length < 3 || !/\d/.test(value)) return null;
  // A date where a number was expected is no number.
  const dates = findDates(value, order);
  if (dates.length && dates[0]!.end - dates[0]!.start >= value.length - 1) return null;
  return { value, start, end: start + token.length, gapWords: 0, ambiguous: false, swapped: false };
}

function readDate(segment: string, order: DateOrder): ReadValue | null {
  const d = findDates(segment, order)[0];
  if (!d) return null;
  const gap = segment.slice(0, d.start);
  // "Expires: 30 days after 03/01/2026" names the anchor, not the expiration.
  if (RELATIVE_WORDS.test(gap) || gap.length > 45 || MOVED_AFTER.test(segment.slice(d.end))) return null;
  return {
    value: d.value,
    start: d.start,
    end: d.end,
    gapWords: words(gap),
    ambiguous: d.ambiguous,
    swapped: d.swapped,
  };
}

/** Words before an amount that make it the old one ("increased from $100,000"): not the bond's amount. */
const OLD_AMOUNT = /\b(?:from|old|previous|original|was|prior|former|existing|current|heretofore)\b/i;

function readAmount(segment: string): ReadValue | null {
  const a = pickAmount(segment);
  if (!a) return null;
  const gap = segment.slice(0, a.start);
  if (OLD_AMOUNT.test(gap) || gap.length > 110) return null;
  // Number words before the figures ("Twenty-Five Thousand Dollars ($25,000)") are the same amount.
  const gapWords = /dollars|thousand|hundred|million/i.test(gap) ? 1 : words(gap);
  let start = a.start;
  while (segment[start] === " ") start++;
  return { value: a.value, start, end: a.end, gapWords, ambiguous: false, swapped: false };
}

/** The OCR's "Cily of", "Countv of", "C1ty of": a government's name, whose first word is never anything else. */
const GOVERNMENT_SLIP = /^(?:C[il1|!][lt1|!][yv]|C[o0]un[lt1][yv])(?= of\b)/i;

/** "Great Lakes Casualty Company", "City of Springfield": most words capitalised, unlike a sentence. */
function looksLikeAName(value: string): boolean {
  const significant = value.split(" ").filter((w) => !/^(?:of|and|the|for|in|on|at|to|by|a|an|&)$/i.test(w));
  const capitalised = significant.filter((w) => /^[A-Z0-9(]/.test(w)).length;
  return significant.length > 0 && significant.length <= 12 && capitalised / significant.length >= 0.6;
}

const NOT_A_NAME =
  /^(?:n\/?a|none|tbd|pending|see\b|same\b|use only|only\b|information|contact|approval|review)/i;

function readName(segment: string): ReadValue | null {
  const start = LEAD.exec(segment)![0].length;
  const rest = segment.slice(start);
  // One cell: up to two spaces (the next column) or a sentence's end.
  const cell = /^[^\s](?:[^ ]| (?! ))*/.exec(rest)?.[0] ?? "";
  // A party named as surety or principal is not the agency nor the obligee: "issued by X, as Surety".
  if (/\bas\s+(?:surety|principal)\b/i.test(cell)) return null;
  const text = cell
    .replace(/,?\s+as\s+obligee\b.*$/i, "")
    .replace(/\s+(?:tel|phone|fax|ph)\b.*$/i, "")
    .replace(/[;,]\s*$/, "")
    .replace(/(?<!\b(?:Co|Inc|Corp|Ltd|Dept|Assn|[A-Z]))\.\s*$/, "");
  const value = tidyName(text).replace(GOVERNMENT_SLIP, (word: string) =>
    /^c[o0]/i.test(word) ? "County" : "City",
  );
  if (!/^[A-Za-z]/.test(value) || (value.match(/[A-Za-z]/g) ?? []).length < 3) return null;
  if (value.length > 100 || NOT_A_NAME.test(value) || !looksLikeAName(value)) return null;
  return { value, start, end: start + text.length, gapWords: 0, ambiguous: false, swapped: false };
}

const RESULTS: [RegExp, string][] = [
  [
    /^(?:not\s+approved|not\s+passed|no\s+pass|disapproved|rejected|failed|fail|denied|corrections?\s+required|re-?inspection\s+required)\b/i,
    "Failed",
  ],
  [/^(?:partial(?:ly)?(?:\s+(?:approv|pass)\w*)?)\b/i, "Partial"],
  [/^(?:passed|pass|approved|accepted)\b/i, "Passed"],
  [/^(?:cancell?ed|cancelled)\b/i, "Cancelled"],
];
/** A ticked box: "[X] Passed", "☒ Failed", "(x) Partial". */
const TICKED = /(?:\[\s*[xX✓✔]\s*\]|☒|☑|✔|✓|\(\s*[xX]\s*\))\s*/g;

export function resultWord(text: string): { value: string; length: number } | null {
  for (const [re, value] of RESULTS) {
    const m = re.exec(text);
    if (m) return { value, length: m[0].length };
  }
  return null;
}

function readResult(segment: string): ReadValue | null {
  TICKED.lastIndex = 0;
  for (let m = TICKED.exec(segment); m; m = TICKED.exec(segment)) {
    const at = m.index + m[0].length;
    const r = resultWord(segment.slice(at));
    if (r)
      return { value: r.value, start: at, end: at + r.length, gapWords: 0, ambiguous: false, swapped: false };
  }
  const start = LEAD.exec(segment)![0].length;
  const r = resultWord(segment.slice(start));
  if (!r) return null;
  return { value: r.value, start, end: start + r.length, gapWords: 0, ambiguous: false, swapped: false };
}

export function readValue(kind: ValueKind, segment: string, order: DateOrder): ReadValue | null {
  switch (kind) {
    case "id":
      return readId(segment, order);
    case "date":
      return readDate(segment, order);
    case "amount":
      return readAmount(segment);
    case "name":
      return readName(segment);
    case "result":
      return readResult(segment);
  }
}
