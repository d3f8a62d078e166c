/**
 * Calendar-date helpers. Permit dates are calendar dates ("YYYY-MM-DD"), and "today" is the
 * date in the company's time zone, so all arithmetic here is on whole UTC days.
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

// Making a DateTimeFormat costs far more than using one: one per zone, made once.
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    dayFormats.set(timeZone, format);
  }
  return format;
}

/** The last answer of todayIn() per zone, and the UTC minute it holds for. */
const todayCache = new Map<string, { minute: number; day: string }>();
/** Since 1972 every zone's offset from UTC is a whole number of minutes. */
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1972, 0, 1);

/**
 * Today's date ("YYYY-MM-DD") in the given IANA time zone. The answer is kept for the rest of its
 * UTC minute: with offsets in whole minutes, no zone's date can change inside one (formatting the
 * date was 2 % of a small request's time, and every request asks).
 */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const ms = now.getTime();
  const minute = Math.floor(ms / 60_000);
  const cached = todayCache.get(timeZone);
  if (cached && cached.minute === minute) return cached.day;
  const parts = dayFormat(timeZone).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  const day = `${get("year")}-${get("month")}-${get("day")}`;
  if (ms >= WHOLE_MINUTE_OFFSETS_SINCE) todayCache.set(timeZone, { minute, day });
  return day;
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * Midnight UTC of a "YYYY-MM-DD" date, in ms. Read digit by digit (the list computes it twice for
 * every row: parsing a built string cost 3 % of the list's CPU under load, and slicing the parts
 * out made three short strings a call); anything else goes through Date.parse.
 */
function toUtc(iso: string): number {
  if (iso.length === 10 && iso.charCodeAt(4) === 45 && iso.charCodeAt(7) === 45) {
    const year = digitsAt(iso, 0, 4);
    const month = digitsAt(iso, 5, 2);
    // Date.UTC reads years 0-99 as 19xx and rolls month 13 over: those go the long way. A
    // non-digit makes NaN, which fails every comparison.
    if (year >= 100 && month >= 1 && month <= 12) return Date.UTC(year, month - 1, digitsAt(iso, 8, 2));
  }
  return Date.parse(`${iso}T00:00:00Z`);
}

/** The number written by `count` decimal digits of `s` from `start`; NaN if one is not a digit. */
function digitsAt(s: string, start: number, count: number): number {
  let n = 0;
  for (let i = start; i < start + count; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

/** Whole days from `from` to `to` (both "YYYY-MM-DD"); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / DAY_MS);
}

export function addDays(iso: string, days: number): string {
  return new Date(toUtc(iso) + days * DAY_MS).toISOString().slice(0, 10);
}
