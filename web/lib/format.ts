/**
 * Every date, number and size format the screens show, in one place (issue 14: one date format).
 * Dates follow the browser's locale in its medium style ("Nov 22, 2026" in US English): the
 * formats the server's e-mails and Excel export use too (shared/domain/format.ts), given the
 * browser's locale here; the API and the CSV export keep ISO dates. Every amount is in its company's currency (formatAmount), in the
 * browser's locale; counts are US English like the rest of the product.
 */

import {
  formatAmount as formatAmountIn,
  formatAmountChange as formatAmountChangeIn,
  formatDate,
} from "../../shared/domain/format.ts";

/** The browser's locale, which the shared formats (shared/domain/format.ts) are given on the screens. */
export const BROWSER_LOCALE = new Intl.DateTimeFormat().resolvedOptions().locale;
const LOCAL_DAY = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const MOMENT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const COUNT = new Intl.NumberFormat("en-US");

/** A calendar date "YYYY-MM-DD" as "Mar 4, 2026", or null. Read in UTC: it is a date, not a moment. */
export function formatDay(iso: string | null | undefined): string | null {
  return formatDate(iso, BROWSER_LOCALE);
}

/** A calendar date "YYYY-MM-DD" as formatDay() shows it, or a dash when there is none. */
export function formatDayOrDash(iso: string | null | undefined): string {
  return formatDay(iso) ?? "—";
}

/** The viewer's own calendar day of a timestamp, "Mar 4, 2026" (a record's creation date, say). */
export function formatDayOf(timestamp: string): string {
  return LOCAL_DAY.format(new Date(timestamp));
}

/** A timestamp in the viewer's own time zone, "Mar 4, 2026, 9:05 AM". */
export function formatMoment(iso: string): string {
  return MOMENT.format(new Date(iso));
}

// Short amounts for chart axes, one formatter per currency, in the browser's locale.
const SHORT_AMOUNTS = new Map<string, Intl.NumberFormat>();
function shortAmountFormat(currency: string | null): Intl.NumberFormat {
  const key = String(currency);
  let format = SHORT_AMOUNTS.get(key);
  if (!format) {
    try {
      if (!currency) throw new RangeError("no currency");
      format = new Intl.NumberFormat(undefined, {
        style: "currency",
        currency,
        notation: "compact",
        maximumFractionDigits: 1,
      });
    } catch {
      // No currency (a view across companies of different ones), or a code Intl does not know.
      format = new Intl.NumberFormat(undefined, { notation: "compact" });
    }
    SHORT_AMOUNTS.set(key, format);
  }
  return format;
}

/**
 * A decimal amount (the API's string, or a number) in `currency` (ISO 4217, e.g. "USD", "EUR"),
 * in the browser's locale: "$1,250,000.00", "1.250.000,00 €"; without a currency "1,250,000.00".
 * Null when there is no amount.
 */
export function formatAmount(
  amount: string | number | null | undefined,
  currency: string | null,
): string | null {
  return formatAmountIn(amount, currency, BROWSER_LOCALE);
}

/** A signed change in `currency`: "+$25,000.00", "-$12,500.00", "$0.00" (a ledger's Change column). */
export function formatAmountChange(amount: string, currency: string): string {
  return formatAmountChangeIn(amount, currency, BROWSER_LOCALE);
}

/** Like formatAmount(), short, for chart axes: "$1.3M". */
export function formatAmountShort(amount: number, currency: string | null): string {
  return shortAmountFormat(currency).format(amount);
}

const PERCENT = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 2 });

/** A share (0.825) as a percentage in the browser's locale: "82.5%", "12.25%". */
export function formatPercent(share: number): string {
  return PERCENT.format(share);
}

/** A count with US thousands separators: 12,345. */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

/** A file size: 27 B, 2.0 KB, 25.0 MB. */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

/** "1 permit", "3 permits" (`many` for irregular plurals). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Like plural(), with thousands separators: "1,204 permits". */
export function pluralLocale(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Initials for an avatar: "Sam Baker" -> "SB". */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts.at(-1)?.[0] ?? "") : "")).toUpperCase() || "?";
}

// One formatter per time zone: a company's moments (a task's due time) read in its own zone.
const MOMENTS_IN = new Map<string, Intl.DateTimeFormat>();

/** A timestamp in a given time zone (the company's), "Mar 4, 2026, 9:05 AM"; the viewer's when unknown. */
export function formatMomentIn(iso: string, timeZone: string): string {
  let format = MOMENTS_IN.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone });
    } catch {
      format = MOMENT;
    }
    MOMENTS_IN.set(timeZone, format);
  }
  return format.format(new Date(iso));
}
