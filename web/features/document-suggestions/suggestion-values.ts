import {
  DATE_SUGGESTION_FIELDS,
  SUGGESTION_FIELDS,
  type Suggestion,
  type SuggestionField,
} from "../../../shared/domain/document-reading.ts";
import { formatAmount, formatDay } from "../../lib/format.ts";

/** What a screen holds for each field today (null or "": nothing yet); a field left out has no value to show. */
export type CurrentValues = Partial<Record<SuggestionField, string | null>>;

/** A value as the app shows it elsewhere: dates in words ("Mar 31, 2027"), amounts in the currency. */
export function shownValue(field: SuggestionField, value: string, currency: string | null): string {
  if (DATE_SUGGESTION_FIELDS.includes(field)) return formatDay(value) ?? value;
  if (field === "bond_amount") return formatAmount(value, currency) ?? value;
  return value;
}

/** The same value, however it was written ("12500" and "12500.00"; "Acme Surety" and "ACME SURETY"). */
export function sameValue(field: SuggestionField, a: string, b: string): boolean {
  if (field === "bond_amount") {
    const [x, y] = [Number(a), Number(b)];
    if (Number.isFinite(x) && Number.isFinite(y)) return x === y;
  }
  return a.trim().replace(/\s+/g, " ").toLowerCase() === b.trim().replace(/\s+/g, " ").toLowerCase();
}

export type Comparison = "same" | "differs" | "empty" | "none";

/** How a suggestion stands against what is there: the same, different, nothing there yet, or no field to compare. */
export function compare(suggestion: Suggestion, current: CurrentValues): Comparison {
  if (!(suggestion.field in current)) return "none";
  const value = current[suggestion.field];
  if (!value) return "empty";
  return sameValue(suggestion.field, suggestion.value, value) ? "same" : "differs";
}

/** Below this the reader is unsure: the row says to check the page. */
export const LOW_CONFIDENCE = 0.6;

/** In the form's order (SUGGESTION_FIELDS), the surest first within a field. */
export function sortSuggestions(suggestions: readonly Suggestion[]): Suggestion[] {
  const order = (s: Suggestion) => SUGGESTION_FIELDS.indexOf(s.field);
  return [...suggestions].sort((a, b) => order(a) - order(b) || b.confidence - a.confidence);
}

/** One value per field, the surest: what 'Accept All' takes. */
export function bestPerField(suggestions: readonly Suggestion[]): Suggestion[] {
  const best = new Map<SuggestionField, Suggestion>();
  for (const s of sortSuggestions(suggestions)) if (!best.has(s.field)) best.set(s.field, s);
  return [...best.values()];
}

/**
 * A row's identity within a reading (one field may carry more than one candidate): where it was
 * read, not its value, which the person may correct before accepting it.
 */
export const suggestionKey = (s: Suggestion) => `${s.field}:${s.page}:${s.raw}`;
