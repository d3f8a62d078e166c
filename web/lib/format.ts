/**
 * Every date, number and size format the screens show, in one place (issue 14: one date format).
 * Dates follow the browser's locale in its medium style ("Nov 22, 2026" in US English); the API
 * and the exports keep ISO dates. Money and counts are US English like the rest of the product.
 */

// `undefined`: the browser's own locale.
const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });
const LOCAL_DAY = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const MOMENT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const MONEY = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const COUNT = new Intl.NumberFormat("en-US");

/** A calendar date "YYYY-MM-DD" as "Mar 4, 2026", or null. Read in UTC: it is a date, not a moment. */
export function formatDay(iso: string | null | undefined): string | null {
  return iso ? DAY.format(new Date(`${iso}T00:00:00Z`)) : null;
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

/** A decimal amount as US dollars; an unparsable one is shown as stored, an empty one is null. */
export function formatMoney(amount: string | null): string | null {
  if (amount === null || amount === "") return null;
  const n = Number(amount);
  return Number.isFinite(n) ? MONEY.format(n) : amount;
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
