import type { DateOrder } from "../../../../shared/domain/document-reading.ts";

/**
 * Absolute dates in a piece of text, in the formats contractors see: MM/DD/YYYY (or DD/MM/YYYY by the
 * company's order), M/D/YY, YYYY-MM-DD, "March 15, 2026", "Mar. 15, 2026", "15 Mar 2026", "15 March 2026",
 * "the 1st day of April, 2026". Impossible dates (02/30/2026) are no dates. Two-digit years are 2000-2099
 * (never a window that drops next year's); four-digit years are taken as written (1900-2199).
 * A relative phrase ("within 14 days", "one year from the date of issue") has no date in it to find.
 */
export interface FoundDate {
  /** YYYY-MM-DD */
  value: string;
  /** Offsets of the characters read, in the text searched. */
  start: number;
  end: number;
  /** Numeric, both readings valid and different (03/04/2026): `value` follows the date order. */
  ambiguous: boolean;
  /** The order decided it but the other reading was impossible (13/04/2026 under MDY). */
  swapped: boolean;
}

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
}; // prettier-ignore

const MONTH =
  "(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";
const ORD = "(?:st|nd|rd|th)?";

/** Each pattern's groups, in the order it names them. */
type Shape = "numeric" | "iso" | "mdy-name" | "dmy-name";
const PATTERNS: { shape: Shape; re: RegExp }[] = [
  // 2026-03-15, 2026/03/15 (a year first is always year-month-day)
  { shape: "iso", re: /(?<![\d/.-])(\d{4})\s?([-/.])\s?(\d{1,2})\s?\2\s?(\d{1,2})(?![\d/-])/g },
  // 03/15/2026, 3/15/26, 15.03.2026, 03-15-2026 (stray spaces around the separators: OCR)
  { shape: "numeric", re: /(?<![\d/.-])(\d{1,2})\s?([-/.])\s?(\d{1,2})\s?\2\s?(\d{4}|\d{2})(?![\d/]|-\d)/g },
  // March 15, 2026 / Mar. 15 2026 / March 15th, 2026
  {
    shape: "mdy-name",
    re: new RegExp(`(?<![A-Za-z])${MONTH}\\.?\\s*(\\d{1,2})${ORD}\\s*,?\\s*(\\d{4})(?!\\d)`, "gi"),
  },
  // 15 Mar 2026 / 15 March, 2026 / 15-Mar-2026 / the 1st day of April, 2026
  {
    shape: "dmy-name",
    re: new RegExp(
      `(?<!\\d)(\\d{1,2})${ORD}(?:\\s+day\\s+of|\\s*-|\\s)\\s*${MONTH}\\.?\\s*[-,]?\\s*(\\d{4})(?!\\d)`,
      "gi",
    ),
  },
];

export function isValidDate(y: number, m: number, d: number): boolean {
  if (!Number.isInteger(y) || y < 1900 || y > 2199) return false;
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [
    31,
    y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return d <= days[m - 1]!;
}

const iso = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;

/** Two digits are 2000-2099: a permit read today never expires in the last century. */
const fullYear = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

function numeric(a: number, b: number, y: number, order: DateOrder) {
  const mdy = isValidDate(y, a, b);
  const dmy = isValidDate(y, b, a);
  if (!mdy && !dmy) return null;
  const ambiguous = mdy && dmy && a !== b;
  const preferMdy = order === "MDY";
  if (mdy && (preferMdy || !dmy)) return { value: iso(y, a, b), ambiguous, swapped: !preferMdy };
  return { value: iso(y, b, a), ambiguous, swapped: preferMdy };
}

function fromMatch(shape: Shape, g: string[], order: DateOrder) {
  switch (shape) {
    case "iso": {
      const [y, m, d] = [Number(g[1]), Number(g[3]), Number(g[4])];
      return isValidDate(y, m, d) ? { value: iso(y, m, d), ambiguous: false, swapped: false } : null;
    }
    case "numeric":
      return numeric(Number(g[1]), Number(g[3]), fullYear(g[4]!), order);
    case "mdy-name": {
      const [m, d, y] = [MONTHS[g[1]!.slice(0, 3).toLowerCase()]!, Number(g[2]), Number(g[3])];
      return isValidDate(y, m, d) ? { value: iso(y, m, d), ambiguous: false, swapped: false } : null;
    }
    case "dmy-name": {
      const [d, m, y] = [Number(g[1]), MONTHS[g[2]!.slice(0, 3).toLowerCase()]!, Number(g[3])];
      return isValidDate(y, m, d) ? { value: iso(y, m, d), ambiguous: false, swapped: false } : null;
    }
  }
}

/** Every date in `text`, in reading order (overlapping readings: the earliest, then the longest). */
export function findDates(text: string, order: DateOrder): FoundDate[] {
  const found: FoundDate[] = [];
  for (const { shape, re } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const read = fromMatch(shape, [...m] as string[], order);
      if (read) found.push({ ...read, start: m.index, end: m.index + m[0].length });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: FoundDate[] = [];
  // Sorted by start: a reading overlaps one kept before it if it starts before the furthest end so far.
  let reach = -1;
  for (const f of found)
    if (f.start >= reach) {
      out.push(f);
      reach = f.end;
    }
  return out;
}

const QUANTITY = String.raw`(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|fifteen|thirty|sixty|ninety|several|few)`;
const UNIT = String.raw`(?:business\s+|calendar\s+|working\s+)?(?:days?|weeks?|months?|years?)`;

/**
 * Text between a label and a date that makes it a relative phrase: "Expires: 30 days after issuance on
 * 03/01/2026" names the anchor, not the expiration. A span of time ("90 days", "one year") or a word that
 * counts from something ("after", "from", "within", "following", "next"). "On or before 03/01/2027" is
 * still an absolute date.
 */
export const RELATIVE_WORDS = new RegExp(
  String.raw`\b${QUANTITY}\s+${UNIT}\b|\b(?:after|within|following|from|upon|next|last|plus)\b`,
  "i",
);

/** A date the text moves by a span right after it: "03/01/2026 + 90 days", "03/01/2026 plus one year". */
export const MOVED_AFTER = new RegExp(String.raw`^\s*(?:\+|plus\b|\(\s*\+)\s*${QUANTITY}\s+${UNIT}`, "i");
