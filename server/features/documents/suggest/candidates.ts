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
export type Placement = "same" | "next" | "table" | "sequence" | "wrap" | "phrase" | "format";
const PLACEMENT_COST: Record<Placement, number> = {
  same: 0,
  next: 0.04,
  table: 0.06,
  sequence: 0.1,
  wrap: 0.1,
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
function nextLine(lines: Line[], i: number): Line | null {
  for (let k = i + 1; k <= i + 2 && k < lines.length; k++) if (lines[k]!.raw.trim()) return lines[k]!;
  return null;
}

const EMPTY_SEGMENT = /^[\s:#.=\-–—>|_]*$/;

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

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const labels = findLabels(line.text, ctx.gates);
    if (!labels.length) continue;
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
        const next = nextLine(lines, i);
        if (!next || startsWithLabel(next, ctx)) return;
        const joined = `${segment} ${next.text}`;
        const w = readValue(label.def.kind, joined, ctx.order);
        if (w && w.start > segment.length)
          make(label, line, next, w.start - segment.length - 1, { ...w, gapWords: w.gapWords + 1 }, "wrap");
      }
    });
    if (waiting.length) nextLineValues(waiting, line, i, ctx, make);
  }
  return out;
}

function startsWithLabel(line: Line, ctx: Context): boolean {
  const first = findLabels(line.text, ctx.gates)[0];
  return Boolean(first && /^\s*$/.test(line.text.slice(0, first.start)));
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
function nextLineValues(waiting: LabelAt[], line: Line, i: number, ctx: Context, make: Make) {
  const next = nextLine(ctx.lines, i);
  if (!next || startsWithLabel(next, ctx)) return;
  // The next line's values stop where a label of its own begins.
  const stop = findLabels(next.text, ctx.gates)[0]?.start ?? next.text.length;
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
