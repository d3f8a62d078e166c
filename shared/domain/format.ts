/**
 * How a calendar date, an amount and a percentage read to a person, in one place for every side:
 * the screens (web/lib/format.ts passes the browser's locale), the audit trail (audit-text.ts), the
 * Excel export and the e-mail digest (the server writes in DISPLAY_LOCALE, US English like the rest
 * of the product). Dates in the medium style: "Dec 1, 2027"; amounts in their company's currency:
 * "$565,263.00". Machine formats (the API, the CSV export, calendar feeds) keep ISO dates.
 */

import { isIsoDate } from "./dates.ts";

/** The locale of what the server writes for people (the digest, the Excel export). */
export const DISPLAY_LOCALE = "en-US";

// Making a formatter costs far more than using one: one per locale and kind, made once.
const formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function cached<F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F {
  let format = formats.get(key) as F | undefined;
  if (!format) formats.set(key, (format = make()));
  return format;
}

/**
 * A calendar date "YYYY-MM-DD" as "Dec 1, 2027" (null without one). Read in UTC: it is a date,
 * not a moment. Text that is not an ISO date comes back as it is.
 */
export function formatDate(iso: string | null | undefined, locale: string = DISPLAY_LOCALE): string | null {
  if (!iso) return null;
  if (!isIsoDate(iso)) return iso;
  const day = new Date(`${iso}T00:00:00Z`);
  return cached(
    `day:${locale}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }),
  ).format(day);
}

function amountFormat(currency: string | null, locale: string, signed: boolean): Intl.NumberFormat {
  return cached(`amount:${locale}:${currency}:${signed}`, () => {
    const sign = signed ? ({ signDisplay: "exceptZero" } as const) : {};
    try {
      if (!currency) throw new RangeError("no currency");
      return new Intl.NumberFormat(locale, { style: "currency", currency, ...sign });
    } catch {
      // No currency (a view across companies of different ones), or a code Intl does not know:
      // the number alone, in the same locale.
      return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, ...sign });
    }
  });
}

/**
 * A decimal amount (the API's string, or a number) in `currency` (ISO 4217): "$565,263.00",
 * "€62,500.50"; without a currency "565,263.00". Null without an amount; text that is not a
 * number comes back as it is.
 */
export function formatAmount(
  amount: string | number | null | undefined,
  currency: string | null,
  locale: string = DISPLAY_LOCALE,
): string | null {
  if (amount === null || amount === undefined || amount === "") return null;
  const n = Number(amount);
  return Number.isFinite(n) ? amountFormat(currency, locale, false).format(n) : String(amount);
}

/** A signed change in `currency`: "+$25,000.00", "-$12,500.00", "$0.00" (a ledger's Change). */
export function formatAmountChange(
  amount: string,
  currency: string | null,
  locale: string = DISPLAY_LOCALE,
): string {
  const n = Number(amount);
  return Number.isFinite(n) ? amountFormat(currency, locale, true).format(n) : amount;
}

/** A percentage written as a number of percent ("50", "12.5") as "50%", "12.5%". */
export function formatPercentOf(percent: string, locale: string = DISPLAY_LOCALE): string {
  const n = Number(percent);
  if (!Number.isFinite(n)) return percent;
  return cached(
    `percent:${locale}`,
    () => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }),
  ).format(n / 100);
}
