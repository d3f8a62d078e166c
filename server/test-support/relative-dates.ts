import { addDays } from "../../shared/domain/dates.ts";

// Dates for tests that must not depend on the day they run on (issue 29): everything is taken
// relative to the company's today. The instants are worked out here with Intl, apart from the
// app's own schedule code, so a test still checks the app's arithmetic.

/** The zone's UTC offset in minutes at an instant (New York: -240 in summer, -300 in winter). */
function offsetMinutes(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).formatToParts(instant);
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const local = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"));
  return Math.round((local - instant.getTime()) / 60_000);
}

/** The instant (ISO, milliseconds) of a local date-time "YYYY-MM-DDTHH:mm" in the zone. */
export function instantOf(local: string, timeZone: string): string {
  const asUtc = new Date(`${local}:00.000Z`).getTime();
  // Two passes settle the offset on either side of a change.
  let guess = asUtc - offsetMinutes(new Date(asUtc), timeZone) * 60_000;
  guess = asUtc - offsetMinutes(new Date(guess), timeZone) * 60_000;
  return new Date(guess).toISOString();
}

/** The next local midnight after the date: when a task due that day becomes overdue. */
export const midnightAfter = (date: string, timeZone: string) =>
  instantOf(`${addDays(date, 1)}T00:00`, timeZone);

/** "Oct 26, 2027", as the schedule's words write a date. */
export const shortDate = (date: string) =>
  new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${date}T00:00:00Z`));

const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
const nthSunday = (year: number, month: number, n: number) => {
  const first = `${year}-${String(month).padStart(2, "0")}-01`;
  return addDays(first, ((7 - weekday(first)) % 7) + 7 * (n - 1));
};

/**
 * The next United States change from daylight to standard time (the first Sunday of November)
 * at least `margin` days after today: the Sunday the clocks go back.
 */
export function nextFallBack(today: string, margin = 7): string {
  for (let year = Number(today.slice(0, 4)); ; year++) {
    const sunday = nthSunday(year, 11, 1);
    if (sunday >= addDays(today, margin)) return sunday;
  }
}

/** The next United States change to daylight time (the second Sunday of March) at least `margin` days out. */
export function nextSpringForward(today: string, margin = 7): string {
  for (let year = Number(today.slice(0, 4)); ; year++) {
    const sunday = nthSunday(year, 3, 2);
    if (sunday >= addDays(today, margin)) return sunday;
  }
}

/** The next 31st of a month after today (at least `margin` days out). */
export function next31st(today: string, margin = 1): string {
  for (let d = addDays(today, margin); ; d = addDays(d, 1)) if (d.endsWith("-31")) return d;
}

/** The next date on or after `from` whose month is January (for a 31st whose next month is February). */
export function nextJanuary31st(today: string, margin = 1): string {
  for (let d = addDays(today, margin); ; d = addDays(d, 1)) if (d.endsWith("-01-31")) return d;
}
