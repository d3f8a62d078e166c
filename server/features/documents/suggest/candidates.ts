import type { DateOrder, PageText, Suggestion } from "../../../../shared/domain/document-reading.ts";
import { RELATIVE_WORDS } from "./dates.ts";
import { findLabels, type Gate, type LabelAt } from "./labels.ts";
import { cells, snippet, type Line } from "./text.ts";
import { readValue, type ReadValue } from "./values.ts";

/**
 * Values found by their labels' nearness: on the same line after the label, or on the next line (the
 * value under its label; a table's header line over its row of values).
 */
export interface Candidate extends Suggestion {
  /** Reading order in the document: page, then offset. Breaks ties between equally sure candidates. */
  order: number;
}

export interface Context {
  page: PageText;
  lines: Line[];
  order: DateOrder;
  gates: ReadonlySet<Gate>;
}

/** How the value was placed relative to its label: the further, the less sure. */
export type Placement = "same" | "next" | "table" | "sequence" | "wrap" | "block" | "phrase" | "format";
const PLACEMENT_COST: Record<Placement, number> = {
  same: 0,
  next: 0.04,
  table: 0.06,
  sequence: 0.1,
  wrap: 0.1,
  block: 0.12,
  phrase: 0,
  format: 0,
};

export function confidence(
  weight: number,
  f: { placement: Placement; gapWords: number; ocrFixed: boolean; ambiguous: boolean; swapped: boolean },
  source: PageText["source"],
): number {
  let c = weight - PLACEMENT_COST[f.placement] - Math.min(0.2, 0.04 * f.gapWords);
  if (f.ocrFixed) c -= 0.1;
  if (f.ambiguous) c -= 0.15;
  if (f.swapped) c -= 0.05;
  if (source === "ocr") c *= 0.92;
  return Math.round(Math.min(0.99, Math.max(0.05, c)) * 100) / 100;
}

/** The next line with text, over at most one blank line. */
function nextLineIndex(lines: Line[], i: number): number | null {
  for (let k = i + 1; k <= i + 2 && k < lines.length; k++) if (lines[k]!.raw.trim()) return k;
  return null;
}

const EMPTY_SEGMENT = /^[\s:;!#.=\-–—>|_]*$/;

export function labelCandidates(ctx: Context): Candidate[] {
  const out: Candidate[] = [];
  const { lines } = ctx;
  const make = (
    label: LabelAt,
    labelLine: Line,
    valueLine: Line,
    start: number,
    v: ReadValue,
    placement: Placement,
  ) => {
    const end = start + (v.end - v.start);
    const rawText = valueLine.raw.slice(start, end);
    const sameLine = valueLine === labelLine;
    const text = sameLine ? labelLine.raw : `${labelLine.raw} ${valueLine.raw}`;
    const shift = sameLine ? 0 : labelLine.raw.length + 1;
    out.push({
      field: label.def.field,
      value: v.value,
      raw: rawText.trim(),
      page: ctx.page.page,
      snippet: snippet(text, label.start, shift + end),
      confidence: confidence(
        label.def.weight,
        {
          placement,
          gapWords: v.gapWords,
          ocrFixed: rawText !== valueLine.text.slice(start, end),
          ambiguous: v.ambiguous,
          swapped: v.swapped,
        },
        ctx.page.source,
      ),
      ambiguous: v.ambiguous,
      order: ctx.page.page * 1e7 + valueLine.offset + start,
    });
  };

  const labelsOf = lines.map((l) => findLabels(l.text, ctx.gates));
  const startsWithLabel = (k: number) => {
    const first = labelsOf[k]![0];
    return Boolean(first && /^\s*$/.test(lines[k]!.text.slice(0, first.start)));
  };
  const blocks = blockValues(lines, labelsOf, ctx, make);

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const labels = labelsOf[i]!;
    if (!labels.length || blocks.has(i)) continue;
    const waiting: LabelAt[] = [];
    labels.forEach((label, j) => {
      const segmentEnd = labels[j + 1]?.start ?? line.text.length;
      const segment = line.text.slice(label.end, segmentEnd);
      if (EMPTY_SEGMENT.test(segment)) {
        waiting.push(label);
        return;
      }
      const v = readValue(label.def.kind, segment, ctx.order);
      if (v) {
        make(label, line, line, label.end + v.start, v, "same");
        return;
      }
      // A value wrapped to the next line: "effective as of 12:01 a.m. on" / "March 1, 2026".
      if (j === labels.length - 1 && (label.def.kind === "date" || label.def.kind === "amount")) {
        if (segment.trim().length > 40 || RELATIVE_WORDS.test(segment)) return;
        const k = nextLineIndex(lines, i);
        if (k === null || startsWithLabel(k)) return;
        const next = lines[k]!;
        const joined = `${segment} ${next.text}`;
        const w = readValue(label.def.kind, joined, ctx.order);
        if (w && w.start > segment.length)
          make(label, line, next, w.start - segment.length - 1, { ...w, gapWords: w.gapWords + 1 }, "wrap");
      }
    });
    if (!waiting.length) continue;
    const k = nextLineIndex(lines, i);
    if (k !== null && !startsWithLabel(k)) nextLineValues(waiting, line, lines[k]!, labelsOf[k]!, ctx, make);
  }
  return out;
}

type Make = (
  label: LabelAt,
  labelLine: Line,
  valueLine: Line,
  start: number,
  v: ReadValue,
  placement: Placement,
) => void;

/** Labels with nothing after them on their line: their values are on the next line. */
function nextLineValues(
  waiting: LabelAt[],
  line: Line,
  next: Line,
  nextLabels: LabelAt[],
  ctx: Context,
  make: Make,
) {
  // The next line's values stop where a label of its own begins.
  const stop = nextLabels[0]?.start ?? next.text.length;
  const usable = next.text.slice(0, stop);
  const cs = cells(usable);
  if (!cs.length) return;
  const readAt = (label: LabelAt, from: number, to: number, placement: Placement) => {
    const v = readValue(label.def.kind, usable.slice(from, to), ctx.order);
    if (v) make(label, line, next, from + v.start, v, placement);
    return v ? from + v.end : null;
  };
  if (waiting.length === 1 || cs.length > 1) {
    // One label, or a table whose columns the text kept: the cell under each label (by count, else by column).
    waiting.forEach((label, k) => {
      const cell =
        cs.length === waiting.length
          ? cs[k]!
          : cs.length === 1
            ? cs[0]!
            : cs.reduce((best, c) =>
                Math.abs(c.start - label.start) < Math.abs(best.start - label.start) ? c : best,
              );
      readAt(
        label,
        cell.start,
        cs.length === 1 ? usable.length : cell.end,
        waiting.length === 1 ? "next" : "table",
      );
    });
    return;
  }
  // A header line over a row whose columns ran together ("BP-2026-0142 03/15/2026 03/15/2027"): in order.
  let pos = 0;
  for (const label of waiting) {
    const end = readAt(label, pos, usable.length, "sequence");
    if (end === null) return;
    pos = end;
  }
}

/**
 * A form whose OCR gave its columns one after the other: the labels, each alone on its line, then the
 * values in the same order ("Permit No." / "Date Issued" / "Site Address" / "BP-1" / "03/15/2026" /
 * "1420 Lakeview Drive"). The run of labels starts with one of ours whose value has a format of its own
 * (a number, a date, an amount), holds short lines without digits (other forms' labels), and ends where
 * that format first appears: its value. Each label of ours gets the value at its rank. Returns the
 * label lines so read: their next line is another label's value, not theirs.
 */
function blockValues(lines: Line[], labelsOf: LabelAt[][], ctx: Context, make: Make): Set<number> {
  const done = new Set<number>();
  const blank = (k: number) => !lines[k]!.raw.trim();
  const alone = (k: number) => {
    const ls = labelsOf[k]!;
    const t = lines[k]!.text;
    return ls.length === 1 && !t.slice(0, ls[0]!.start).trim() && EMPTY_SEGMENT.test(t.slice(ls[0]!.end));
  };
  const labelLike = (k: number) => {
    const t = lines[k]!.text.trim();
    return alone(k) || (t.length <= 40 && !/\d/.test(t) && !/[.!?,;]$/.test(t) && t.split(/\s+/).length <= 5);
  };
  for (let i = 0; i < lines.length; i++) {
    const first = labelsOf[i]![0];
    if (!alone(i) || !first || !["id", "date", "amount"].includes(first.def.kind)) continue;
    const run = [i];
    let k = i + 1;
    for (; k < lines.length && run.length <= 20; k++) {
      if (blank(k)) continue;
      if (!labelLike(k) || readValue(first.def.kind, lines[k]!.text, ctx.order)) break;
      run.push(k);
    }
    if (run.length < 2 || k >= lines.length || !readValue(first.def.kind, lines[k]!.text, ctx.order))
      continue;
    const values: number[] = [];
    for (; k < lines.length && values.length < run.length; k++) {
      if (blank(k)) continue;
      if (alone(k)) break;
      values.push(k);
    }
    run.forEach((r, rank) => {
      if (!alone(r) || values[rank] === undefined) return;
      const label = labelsOf[r]![0]!;
      const value = lines[values[rank]!]!;
      const v = readValue(label.def.kind, value.text, ctx.order);
      if (v) make(label, lines[r]!, value, v.start, v, "block");
      done.add(r);
    });
    i = k - 1;
  }
  return done;
}
