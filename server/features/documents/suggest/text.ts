/**
 * A page's text as the suggester reads it: its lines (with their offsets, for the reading order), the
 * OCR's usual digit confusions undone character for character (so offsets still point at what was read),
 * the snippet around a value.
 */
export interface Line {
  /** As read. */
  raw: string;
  /** The same characters with 'O' → '0', 'l'/'I'/'|' → '1' inside numbers (same length as `raw`). */
  text: string;
  /** Offset of the line's first character in the page's lines joined by one character (joinLines). */
  offset: number;
}

/**
 * A run of digits and digit look-alikes with separators, not touching a letter, holding at least one real
 * digit: "2O26" → "2026", "l5" → "15", "$1,25O,OOO.OO" → "$1,250,000.00". "Oct", "ISO", "Hall" are left alone.
 */
const NUMBERISH = /(?<![A-Za-z])[0-9OoIl|](?:[0-9OoIl|,./:-]*[0-9OoIl|])?(?![A-Za-z])/g;

export function fixOcrDigits(text: string): string {
  return text.replace(NUMBERISH, (run) =>
    /\d/.test(run) && /[OoIl|]/.test(run) ? run.replace(/[Oo]/g, "0").replace(/[Il|]/g, "1") : run,
  );
}

export function splitLines(pageText: string): Line[] {
  const lines: Line[] = [];
  let offset = 0;
  for (const raw of pageText.replace(/\r\n?/g, "\n").split("\n")) {
    // Tabs count as a column gap (two spaces) so that both "a\tb" and "a   b" split into cells.
    const spaced = raw.replace(/\t/g, "  ").replace(/[\u00a0\u2007\u202f]/g, " ");
    lines.push({ raw: spaced, text: fixOcrDigits(spaced), offset });
    offset += spaced.length + 1;
  }
  return lines;
}

/** Cells of a line: text separated by two or more spaces (a table's columns as a text layer keeps them). */
export function cells(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const re = /\S+(?: \S+)*/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

const squash = (s: string) => s.replace(/\s+/g, " ");

/**
 * At most `max` characters around a value, starting at its label when it fits: "… Expiration Date:
 * 03/15/2027 …". `text` is the label's line (and the value's, joined by a space, when the value is
 * on the next line); [from, to) covers the label and the value.
 */
export function snippet(text: string, from: number, to: number, max = 120): string {
  const core = squash(text.slice(from, to)).trim();
  if (core.length >= max) return `${core.slice(0, max - 1)}…`;
  let room = max - core.length;
  // Only a window of the text around the value: a page can be long, and it has many values.
  const afterRaw = squash(text.slice(to, to + 2 * max)).trimEnd();
  const beforeRaw = squash(text.slice(Math.max(0, from - 2 * max), from)).trimStart();
  const after = afterRaw.slice(0, Math.max(Math.floor(room / 2), room - beforeRaw.length));
  room -= after.length;
  const before = beforeRaw.slice(Math.max(0, beforeRaw.length - room));
  return (
    (before.length < beforeRaw.length ? "…" : "") +
    `${before}${core}${after}`.trim() +
    (after.length < afterRaw.length ? "…" : "")
  ).slice(0, max + 2);
}

const SMALL = new Set(["of", "and", "the", "for", "in", "on", "at", "to", "by", "a", "an"]);
const KEEP_UPPER = /^(?:LLC|LLP|INC\.?|USA|N\.A\.|II|III|IV|[A-Z]\.(?:[A-Z]\.)+),?$/;

const isCaps = (w: string) => /[A-Z]{2}/.test(w) && !/[a-z]/.test(w);
const titleWord = (w: string) =>
  w.toLowerCase().replace(/(^|[-'(&/])([a-z])/g, (_, p: string, c: string) => p + c.toUpperCase());

/**
 * Trimmed, spaces collapsed, and a phrase in capitals in title case: "CITY OF SPRINGFIELD" → "City of
 * Springfield", "COUNTY OF MARIN Department of Public Works" → "County of Marin Department of Public Works".
 * A lone capitalised word is an acronym and stays ("ABC Surety"), as do LLC, INC., U.S.
 */
export function tidyName(text: string): string {
  const words = text
    .replace(/\s+/g, " ")
    .replace(/^[\s:#.,;\-–—]+|[\s:,;\-–—]+$/g, "")
    .trim()
    .split(" ");
  const caps = words.map((w) => isCaps(w) || (/^[A-Z]+$/.test(w) && SMALL.has(w.toLowerCase())));
  return words
    .map((w, i) => {
      const inRun = caps[i] && (caps[i - 1] || caps[i + 1]);
      if (!inRun || KEEP_UPPER.test(w)) return w;
      return i > 0 && SMALL.has(w.toLowerCase()) ? w.toLowerCase() : titleWord(w);
    })
    .join(" ");
}

/** The page's lines as one string, a space where each line ended: offsets are the lines' `offset`s. */
export function joinLines(lines: Line[], which: "raw" | "text"): string {
  return lines.map((l) => l[which]).join(" ");
}
