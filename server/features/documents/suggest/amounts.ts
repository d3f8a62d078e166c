/**
 * Money amounts in a piece of text: "$1,250,000.00", "$ 1,250,000", "USD 25,000.50", "25,000.50 USD",
 * "$1, 250,000.00" (a stray OCR space after a separator) and, where it cannot be misread, the European
 * "25.000,50 €" (dots for thousands and exactly two decimals after a comma). "25.000 €" alone is not read:
 * it is 25 or 25,000 depending on who wrote it.
 */
export interface FoundAmount {
  /** A plain decimal with two places: "1250000.00". */
  value: string;
  start: number;
  end: number;
  /** A currency sign or word next to it. */
  currency: boolean;
  /** Written with thousands separators or cents: an amount by its format, not any number. */
  formatted: boolean;
}

const CUR_BEFORE = String.raw`(?:(USD|US\s?\$|\$|EUR|€)\s*)?`;
const CUR_AFTER = String.raw`(?:\s*(€|EUR|USD|dollars\b))?`;
// 1.250.000,00 or 25.000,50: the European form, only with exactly two decimals after the comma.
const EUROPEAN = new RegExp(
  String.raw`${CUR_BEFORE}(?<![\d.,])(\d{1,3}(?:\.\d{3})+,\d{2})(?![\d.,]\d)${CUR_AFTER}`,
  "gi",
);
// 1,250,000.00 / 1, 250,000 / 1250000.00 / 25000
const US = new RegExp(
  String.raw`${CUR_BEFORE}(?<![\d.,])(\d{1,3}(?:,\s?\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)(?![\d]|[.,]\d)${CUR_AFTER}`,
  "gi",
);

// $ 2 500 000.00: spaces for thousands, read only after a currency sign (else "Bond 123 456" would be one).
const SPACED = new RegExp(
  String.raw`(USD|US\s?\$|\$|EUR|€)\s*(?<![\d.,])(\d{1,3}(?: \d{3})+(?:\.\d{1,2})?)(?![\d]|[.,]\d| \d)()`,
  "gi",
);

function normalise(digits: string, european: boolean): string | null {
  const plain = european ? digits.replace(/\./g, "").replace(",", ".") : digits.replace(/[,\s]/g, "");
  const n = Number(plain);
  if (!Number.isFinite(n) || n <= 0) return null;
  return n.toFixed(2);
}

/** Every amount in `text`, in reading order. */
export function findAmounts(text: string): FoundAmount[] {
  const found: FoundAmount[] = [];
  for (const [re, european] of [
    [EUROPEAN, true],
    [SPACED, false],
    [US, false],
  ] as const) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const value = normalise(m[2]!, european);
      if (!value) continue;
      const currency = Boolean(m[1] || m[3]);
      const formatted = european || /,\d{3}|\.\d{2}$/.test(m[2]!);
      // Trim the trailing space a currency-less match may not have, but never the sign before it.
      found.push({ value, start: m.index, end: m.index + m[0].trimEnd().length, currency, formatted });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: FoundAmount[] = [];
  // Sorted by start: a reading overlaps one kept before it if it starts before the furthest end so far.
  let reach = -1;
  for (const f of found)
    if (f.start >= reach) {
      out.push(f);
      reach = f.end;
    }
  return out;
}

/**
 * The amount a label names: the first with a currency sign, else the first written as an amount
 * (separators, cents) of at least 100, else none. "Twenty-Five Thousand and 00/100 Dollars ($25,000.00)"
 * gives $25,000.00, not the 00 of 00/100.
 */
export function pickAmount(text: string): FoundAmount | null {
  const all = findAmounts(text).filter((a) => !isPartOfDate(text, a));
  return all.find((a) => a.currency) ?? all.find((a) => a.formatted && Number(a.value) >= 100) ?? null;
}

/** 00/100, 03/15/2026: digits next to a slash are a fraction or a date, not an amount. */
function isPartOfDate(text: string, a: FoundAmount): boolean {
  return /[/]/.test(text.charAt(a.end)) || /[/]/.test(text.charAt(a.start - 1));
}
