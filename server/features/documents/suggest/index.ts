import type { DateOrder, PageText, Suggestion } from "../../../../shared/domain/document-reading.ts";

/**
 * Issue 28, the suggestions: the fields that matter, found in a document's text by their labels'
 * nearness, with page, snippet and confidence. Absolute dates only; no relative phrase becomes a
 * date. Pure: no I/O. (Interface first; the implementation lands with the suggestions' branch.)
 */
export function suggestFields(_pages: PageText[], _opts: { dateOrder: DateOrder }): Suggestion[] {
  return [];
}
