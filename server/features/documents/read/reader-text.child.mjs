// The document reader's text helpers (decision 0030), plain JavaScript for the reader's child process
// (reader.child.mjs): a PDF page's text items into lines, and one page's text normalised.

/** C0 controls but tab and line feed, DEL: PostgreSQL text cannot hold NUL, and none of them is text. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F]/g;

/**
 * A page's text as stored: lines kept, runs of spaces and tabs (and no-break spaces) made one space,
 * each line trimmed, at most one blank line in a row, none at the start or end, no control characters.
 */
export function normalisePageText(text) {
  const lines = String(text)
    .toWellFormed()
    .replace(/\r\n?/g, "\n")
    .replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, " ")
    .replace(CONTROLS, "")
    .split("\n")
    .map((line) => line.replace(/[ \t]+/g, " ").trim());
  const kept = [];
  for (const line of lines) {
    if (line === "" && (kept.length === 0 || kept[kept.length - 1] === "")) continue;
    kept.push(line);
  }
  while (kept.length > 0 && kept[kept.length - 1] === "") kept.pop();
  return kept.join("\n");
}

/**
 * PDF.js text items (getTextContent().items) into lines: items whose baselines are within half a font
 * height are one line, read left to right, a space where there is a gap between them. A form's label
 * and its value drawn apart at the same height ("Permit No." … "BP-2026-00417") become one line.
 */
export function linesFromTextItems(items) {
  const runs = [];
  for (const item of items) {
    if (typeof item.str !== "string" || item.str === "") continue;
    const [a, b, , , x, y] = item.transform;
    const size = Math.hypot(a, b) || item.height || 1;
    runs.push({ str: item.str, x, y, size, width: item.width });
  }
  // Top of the page first (PDF space grows upwards), then left to right.
  runs.sort((p, q) => q.y - p.y || p.x - q.x);
  const lines = [];
  for (const run of runs) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(line.y - run.y) <= Math.max(line.size, run.size) / 2) line.runs.push(run);
    else lines.push({ y: run.y, size: run.size, runs: [run] });
  }
  return lines
    .map((line) => {
      line.runs.sort((p, q) => p.x - q.x);
      let text = "";
      let end = null;
      for (const run of line.runs) {
        if (end !== null && run.x - end > run.size * 0.15 && !/\s$/.test(text) && !/^\s/.test(run.str))
          text += " ";
        text += run.str;
        end = run.x + run.width;
      }
      return text;
    })
    .join("\n");
}

/** Letters and digits in a text: a page with fewer has no text layer worth the name. */
export function meaningfulCharacters(text) {
  const matches = text.match(/[\p{L}\p{N}]/gu);
  return matches ? matches.length : 0;
}
