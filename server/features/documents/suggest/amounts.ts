/**
 * Money amounts in a piece of text: "$1,250,000.00", "$ 1,250,000", "USD 25,000.50", "25,000.50 USD",
 * "$1, 250,000.00" (a stray OCR space after a separator), "$ 2 500 000.00" (spaces for thousands, after a
 * sign only) and the European "25.000,50 €", "1.250.000,00". The separators are read by their places,
 * not their kinds, which also undoes an OCR's swapped comma and dot ("$1.250,000,00" is 1250000.00):
 * one or two digits after the last separator are cents, every other group has three digits. What can be
 * misread is not read: "25.000" (25 or 25,000?) unless more groups follow, "25,50" unless in euros.
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
// 1,250,000.00 / 1.250.000,00 / 1, 250,000 / 1250000.00 / 25000 / 25,50
const GROUPED = new RegExp(
  String.raw`${CUR_BEFORE}(?<![\d.,])(\d{1,3}(?:[.,] ?\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?![\d]|[.,]\d)${CUR_AFTER}`,
  "gi",
);
// $ 2 500 000.00: spaces for thousands, read only after a currency sign (else "Bond 123 456" would be one).
const SPACED = new RegExp(
  String.raw`(USD|US\s?\$|\$|EUR|€)\s*(?<![\d.,])(\d{1,3}(?: \d{3})+(?:[.,]\d{1,2})?)(?![\d]|[.,]\d| \d)()`,
  "gi",
);

/** The digits read by the separators' places; null when the writing can be read two ways. */
function normalise(digits: string, euro: boolean): string | null {
  const compact = digits.replace(/ (?=\d)/g, (_, i: number) => (/[.,]/.test(digits[i - 1] ?? "") ? "" : " "));
  const parts = compact.split(/[., ]/);
  const seps = compact.match(/[., ]/g) ?? [];
  let cents = "00";
  if (parts.length > 1 && parts.at(-1)!.length <= 2) {
    cents = parts.pop()!.padEnd(2, "0");
    const sep = seps.pop()!;
    // "25,50" in dollars is a slip, not twenty-five fifty: only euros write cents after a lone comma.
    if (sep === "," && parts.length === 1 && !euro) return null;
  }
  // "25.000" alone: 25 or 25,000 depending on who wrote it.
  if (parts.length === 2 && seps[0] === "." && cents === "00" && !/[.,]\d{1,2}$/.test(compact)) return null;
  if (parts.slice(1).some((g) => g.length !== 3)) return null;
  const n = Number(`${parts.join("")}.${cents}`);
  if (!Number.isFinite(n) || n <= 0) return null;
  return n.toFixed(2);
}

/** Every amount in `text`, in reading order. */
export function findAmounts(text: string): FoundAmount[] {
  const found: FoundAmount[] = [];
  for (const re of [SPACED, GROUPED]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const euro = /€|EUR/i.test(`${m[1] ?? ""}${m[3] ?? ""}`);
      const value = normalise(m[2]!, euro);
      if (!value) continue;
      const currency = Boolean(m[1] || m[3]);
      const formatted = /[.,] ?\d{3}|[.,]\d{2}$/.test(m[2]!);
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
