import type { SuggestionField } from "../../../../shared/domain/document-reading.ts";
import { findAmounts } from "./amounts.ts";
import { confidence, type Candidate, type Context, type Placement } from "./candidates.ts";
import { findDates, type FoundDate } from "./dates.ts";
import { fixOcrDigits, joinLines, snippet, tidyName } from "./text.ts";
import { resultWord } from "./values.ts";

/**
 * Values named by a phrase rather than a label, read over the page's lines joined (a sentence wraps):
 * a rider's "increased from $100,000.00 to $150,000.00" (the new amount), "Great Lakes Casualty Company,
 * as Surety", a "City of X" / "County of X … Department" letterhead, a continuation's "from <date> to
 * <date>", a ticked "[X] Passed", and a permit number by its format alone (low confidence).
 */
export function phraseCandidates(ctx: Context): Candidate[] {
  const raw = joinLines(ctx.lines, "raw");
  const text = joinLines(ctx.lines, "text");
  const out: Candidate[] = [];
  const add = (
    field: SuggestionField,
    value: string,
    start: number,
    end: number,
    weight: number,
    extra: { from?: number; ambiguous?: boolean; swapped?: boolean; placement?: Placement } = {},
  ) => {
    const read = raw.slice(start, end);
    out.push({
      field,
      value,
      raw: read.trim(),
      page: ctx.page.page,
      snippet: snippet(raw, extra.from ?? start, end),
      confidence: confidence(
        weight,
        {
          placement: extra.placement ?? "phrase",
          gapWords: 0,
          ocrFixed: read !== text.slice(start, end),
          ambiguous: extra.ambiguous ?? false,
          swapped: extra.swapped ?? false,
        },
        ctx.page.source,
      ),
      ambiguous: extra.ambiguous ?? false,
      order: ctx.page.page * 1e7 + start,
    });
  };

  riderAmounts(text, add);
  asSurety(raw, add);
  letterhead(ctx, add);
  datePeriods(text, ctx, add);
  if (ctx.gates.has("inspection")) tickedResults(text, add);
  permitNumberByFormat(ctx, add);
  return out;
}

type Add = (
  field: SuggestionField,
  value: string,
  start: number,
  end: number,
  weight: number,
  extra?: { from?: number; ambiguous?: boolean; swapped?: boolean; placement?: Placement },
) => void;

const CHANGE = /\b(?:increas|decreas|chang|amend|reduc|revis|rais|modif)\w*\b[^$€\d]{0,80}$/i;

/** "… is hereby increased from $100,000.00 to $150,000.00": the new amount. */
function riderAmounts(text: string, add: Add) {
  const amounts = findAmounts(text).filter((a) => a.currency || a.formatted);
  for (let k = 0; k + 1 < amounts.length; k++) {
    const [a, b] = [amounts[k]!, amounts[k + 1]!];
    if (!/^\s*(?:to|into)\s*$/i.test(text.slice(a.end, b.start))) continue;
    const before = text.slice(Math.max(0, a.start - 100), a.start);
    if (!/\bfrom\s*$/i.test(before) || !CHANGE.test(before.replace(/\bfrom\s*$/i, ""))) continue;
    const verb = before.search(CHANGE);
    add("bond_amount", b.value, b.start, b.end, 0.97, { from: a.start - (before.length - verb) });
  }
}

/** "… and Great Lakes Casualty Company, as Surety" / "Great Lakes Casualty Company (the "Surety")". */
function asSurety(raw: string, add: Add) {
  const re =
    /(?:,\s*|\s+)as\s+Surety\b|\s*\(\s*(?:hereinafter\s+(?:called\s+|referred\s+to\s+as\s+)?)?(?:the\s+)?["“”']?Surety["“”']?\s*\)/gi;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    const windowStart = Math.max(0, m.index - 140);
    const before = raw.slice(windowStart, m.index);
    // The name starts after the last "and", "that", a colon or "as Principal,".
    const cuts = [
      ...before.matchAll(
        /\band\b(?!\s*(?:Company|Co\b))|\bthat\b|\bwe\b|\bby\b|[:;()"“”]|\bPrincipal\b,?|\bObligee\b,?/gi,
      ),
    ];
    const last = cuts.at(-1);
    const from = last ? last.index + last[0].length : 0;
    let name = before.slice(from);
    name = name
      .replace(/,\s*an?\s+[A-Za-z ]{0,40}\bcorporation\b.*$/i, "")
      .replace(/^[\s,]*(?:the\s+)?/i, "");
    const value = tidyName(name);
    if (!/^[A-Z]/.test(value) || value.length < 4 || value.length > 90 || !/[A-Za-z]{3}/.test(value))
      continue;
    const start = windowStart + before.indexOf(name.trim() || name);
    add("surety_company", value, start, start + name.trim().length, 0.85, { from: start });
  }
}

const GOVERNMENT =
  /^\s*(?:the\s+)?(?:city|county|town|village|township|borough|parish|state|commonwealth)\s+(?:and\s+county\s+)?of\s+[A-Za-z]/i;
const DEPARTMENT =
  /^\s*(?:department|dept\.?|division|bureau|office)\b|\b(?:department|division|bureau)\s*$/i;

/** A "City of Springfield" / "COUNTY OF MARIN" + "DEPARTMENT OF PUBLIC WORKS" letterhead near the page's top. */
function letterhead(ctx: Context, add: Add) {
  const top = ctx.lines
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l.raw.trim())
    .slice(0, 6);
  for (let k = 0; k < top.length; k++) {
    const { l } = top[k]!;
    if (!GOVERNMENT.test(l.raw)) continue;
    const first = /\S+(?: \S+)*/.exec(l.raw)!;
    // "CITY OF SPRINGFIELD - BUILDING INSPECTION REPORT": the agency, not the document's title.
    let name = first[0].replace(
      /\s+[-–—|:]\s+.*\b(?:report|permit|certificate|notice|record|card|application|form)\b.*$/i,
      "",
    );
    const firstEnd = first.index + name.length;
    let end = l.offset + firstEnd;
    const next = top[k + 1]?.l;
    if (next && !/\b(?:department|division|bureau)\b/i.test(name) && DEPARTMENT.test(next.raw.trim())) {
      const dept = /\S+(?: \S+)*/.exec(next.raw)!;
      name = `${name} ${dept[0]}`;
      end = next.offset + dept.index + dept[0].length;
    }
    const value = tidyName(name.replace(/[.,;:]+$/, ""));
    add("agency", value, l.offset + first.index, end, k < 3 ? 0.75 : 0.6);
    return;
  }
}

/** "continued in force from March 1, 2026 to March 1, 2027", "valid from 03/01/2026 through 02/28/2027". */
function datePeriods(text: string, ctx: Context, add: Add) {
  const dates = findDates(text, ctx.order);
  const opt = (d: FoundDate) => ({ ambiguous: d.ambiguous, swapped: d.swapped });
  for (let k = 0; k + 1 < dates.length; k++) {
    const [a, b] = [dates[k]!, dates[k + 1]!];
    if (
      !/^\s*,?\s*(?:to|until|through|thru|and\s+ending(?:\s+on)?|-|–)\s*$/i.test(text.slice(a.end, b.start))
    )
      continue;
    const before = text.slice(Math.max(0, a.start - 80), a.start);
    if (!/\b(?:from|beginning|commencing|starting)\s*(?:on\s*)?$/i.test(before)) continue;
    const from = a.start - Math.min(before.length, 40);
    if (ctx.gates.has("rider") && /\b(?:continu|renew|extend|force|term|period|effect)\w*/i.test(before)) {
      // The period's start is the rider's effective date only when the text says so ("effective for the
      // period from …"); a continuation's "beginning" date is its old bond's anniversary, not a rider's.
      if (/\beffective\b/i.test(before))
        add("rider_effective_date", a.value, a.start, a.end, 0.85, { from, ...opt(a) });
      add("expiration_date", b.value, b.start, b.end, 0.7, { from, ...opt(b) });
    } else if (/\b(?:valid|period|term|effect)\w*/i.test(before)) {
      add("issue_date", a.value, a.start, a.end, 0.6, { from, ...opt(a) });
      add("expiration_date", b.value, b.start, b.end, 0.75, { from, ...opt(b) });
    }
  }
}

/** A ticked box without a label: "[X] PASSED  [ ] FAILED". */
function tickedResults(text: string, add: Add) {
  const re = /(?:\[\s*[xX✓✔]\s*\]|☒|☑|\(\s*[xX]\s*\))\s*/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const at = m.index + m[0].length;
    const r = resultWord(text.slice(at));
    if (r) add("inspection_result", r.value, at, at + r.length, 0.8, { from: m.index });
  }
}

/** "ENCROACHMENT PERMIT  EP-26-00317": a permit-number shape on a line that says "permit", without a label. */
function permitNumberByFormat(ctx: Context, add: Add) {
  for (const line of ctx.lines) {
    if (!/permit/i.test(line.text)) continue;
    const re = /(?<![\w-])(?:[A-Z]{1,5}-?)?\d{2,4}-\d{2,7}(?:-[A-Z0-9]{1,5})?(?![\w-])/g;
    for (let m = re.exec(line.text); m; m = re.exec(line.text)) {
      // A date, or a telephone number ("(415) 473-6528", "415-473-6528"), is no permit number.
      if (findDates(m[0], ctx.order).length || /^(?:\d{3}-)?\d{3}-\d{4}$/.test(m[0])) continue;
      const start = line.offset + m.index;
      add("permit_number", fixOcrDigits(m[0]), start, start + m[0].length, 0.4, { placement: "format" });
    }
  }
}
