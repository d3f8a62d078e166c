const DAY = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});

/** A calendar date "YYYY-MM-DD" as "Mar 4, 2026"; empty shows a dash. UTC: it is a date, not a moment. */
export function formatDay(iso: string | null | undefined): string {
  return iso ? DAY.format(new Date(`${iso}T00:00:00Z`)) : "—";
}
