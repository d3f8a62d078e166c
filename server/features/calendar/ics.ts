/**
 * A minimal iCalendar (RFC 5545) writer for the expiration feed: all-day events with display
 * alarms, TEXT escaping (section 3.3.11) and line folding at 75 octets (section 3.1).
 */

export interface IcsEvent {
  uid: string;
  /** Last change of the underlying record (DTSTAMP). */
  stamp: Date;
  /** The all-day date, "YYYY-MM-DD". */
  date: string;
  /** A timed event's instant (issue 29: a task due at a time): DTSTART in UTC, no DTEND, instead of the all-day date. */
  at?: Date;
  summary: string;
  description: string;
  url: string;
  categories: string[];
  /** Alarms, in days before the date; each fires at 09:00 (floating) that day. */
  alarmDaysBefore: number[];
}

const CRLF = "\r\n";

/** Escapes a TEXT value: backslash, semicolon, comma and line breaks. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/** Folds a content line into chunks of at most 75 octets, never splitting a UTF-8 character. */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  if (encoder.encode(line).length <= 75) return line;
  const chunks: string[] = [];
  let current = "";
  let size = 0;
  for (const ch of line) {
    const bytes = encoder.encode(ch).length;
    // Continuation lines start with a space, which counts toward their 75 octets.
    const limit = chunks.length ? 74 : 75;
    if (size + bytes > limit) {
      chunks.push(current);
      current = "";
      size = 0;
    }
    current += ch;
    size += bytes;
  }
  chunks.push(current);
  return chunks.join(`${CRLF} `);
}

const basicDate = (iso: string) => iso.replaceAll("-", "");
const utcStamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
const nextDay = (iso: string) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** 09:00 on the day `days` before an all-day event starting at 00:00. */
const alarmTrigger = (days: number) => (days <= 1 ? "-PT15H" : `-P${days - 1}DT15H`);

export function buildCalendar(opts: { name: string; description: string; events: IcsEvent[] }): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Permitrack//Expiration feed//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(opts.name)}`,
    `X-WR-CALDESC:${escapeText(opts.description)}`,
    "REFRESH-INTERVAL;VALUE=DURATION:PT6H",
    "X-PUBLISHED-TTL:PT6H",
  ];
  for (const e of opts.events) {
    lines.push(
      "BEGIN:VEVENT",
      `UID:${e.uid}`,
      `DTSTAMP:${utcStamp(e.stamp)}`,
      ...(e.at
        ? [`DTSTART:${utcStamp(e.at)}`]
        : [`DTSTART;VALUE=DATE:${basicDate(e.date)}`, `DTEND;VALUE=DATE:${basicDate(nextDay(e.date))}`]),
      `SUMMARY:${escapeText(e.summary)}`,
      `DESCRIPTION:${escapeText(e.description)}`,
      `URL:${e.url}`,
      ...(e.categories.length ? [`CATEGORIES:${e.categories.map(escapeText).join(",")}`] : []),
      "TRANSP:TRANSPARENT",
    );
    for (const days of e.alarmDaysBefore) {
      lines.push(
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        `DESCRIPTION:${escapeText(`${e.summary} — ${days} day${days === 1 ? "" : "s"} left`)}`,
        `TRIGGER:${alarmTrigger(days)}`,
        "END:VALARM",
      );
    }
    lines.push("END:VEVENT");
  }
  lines.push("END:VCALENDAR");
  return lines.map(foldLine).join(CRLF) + CRLF;
}
