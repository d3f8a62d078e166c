/** Display formats of the permit detail page (US English, like the rest of the product). */
const DAY = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});
const MOMENT = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const MONEY = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** A calendar date "YYYY-MM-DD" as "Mar 4, 2026" (no time-zone shift: it is a date, not a moment). */
export function formatDay(iso: string | null | undefined): string | null {
  return iso ? DAY.format(new Date(`${iso}T00:00:00Z`)) : null;
}

/** A timestamp in the viewer's own time zone. */
export function formatMoment(iso: string): string {
  return MOMENT.format(new Date(iso));
}

export function formatMoney(amount: string | null): string | null {
  if (amount === null || amount === "") return null;
  const n = Number(amount);
  return Number.isFinite(n) ? MONEY.format(n) : amount;
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

/** Initials for an avatar: "Sam Baker" -> "SB". */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts.at(-1)?.[0] ?? "") : "")).toUpperCase() || "?";
}
