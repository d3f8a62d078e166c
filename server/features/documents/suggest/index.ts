import {
  SUGGESTION_FIELDS,
  type DateOrder,
  type PageText,
  type Suggestion,
} from "../../../../shared/domain/document-reading.ts";
import { labelCandidates, type Candidate, type Context } from "./candidates.ts";
import { gatesOf } from "./labels.ts";
import { phraseCandidates } from "./phrases.ts";
import { splitLines } from "./text.ts";

/**
 * Issue 28, the suggestions: the fields that matter, found in a document's text by their labels'
 * nearness, with page, snippet and confidence. Absolute dates only; no relative phrase becomes a
 * date. Pure: no I/O.
 *
 * Every page gives candidates (labels.ts: the labels; values.ts: each kind of value after its label;
 * dates.ts and amounts.ts: the formats; phrases.ts: values a sentence names rather than a label);
 * each field keeps its best one: the highest confidence, then the earliest in the document.
 */
export function suggestFields(pages: PageText[], opts: { dateOrder: DateOrder }): Suggestion[] {
  const gates = gatesOf(pages.map((p) => p.text).join("\n"));
  const candidates: Candidate[] = [];
  for (const page of pages) {
    if (!page.text.trim()) continue;
    const ctx: Context = { page, lines: splitLines(page.text), order: opts.dateOrder, gates };
    candidates.push(...labelCandidates(ctx), ...phraseCandidates(ctx));
  }
  const best = new Map<string, Candidate>();
  for (const c of candidates) {
    const current = best.get(c.field);
    if (
      !current ||
      c.confidence > current.confidence ||
      (c.confidence === current.confidence && c.order < current.order)
    )
      best.set(c.field, c);
  }
  return SUGGESTION_FIELDS.flatMap((field) => {
    const c = best.get(field);
    if (!c) return [];
    const { order: _order, ...suggestion } = c;
    return [suggestion];
  });
}
