import { todayIn } from "../../../shared/domain/dates.ts";
import type { Term } from "../../../shared/schemas/lifecycle.ts";

/** A stored row of permit_terms as the lifecycle reads it: an original, a renewal or an extension. */
export type TermRow = Omit<Term, "extensions">;

/**
 * The Terms history (issue 25): one entry per term, grouped from the stored rows (kept as they are,
 * in order). An extension moves its term's expiry: it becomes a sub-line of the term with the date
 * it replaced, and the term shows the date it has now; the term ended when its last row ended (the
 * renewal after it or the close), so an extended term never shows an earlier row without an end.
 * An extension with no term before it (data from before the original rows) heads a term of its own.
 * A closed permit's (or released bond's) last term ended on its close date when no row says so (a
 * bond's Release closes it without 'Close Permit').
 */
export function groupTerms(rows: readonly TermRow[], zone: string, closedOn: string | null = null): Term[] {
  const terms: Term[] = [];
  for (const row of rows) {
    const term = terms.at(-1);
    if (row.kind === "extension" && term && term.term_no === row.term_no) {
      term.extensions.push({
        id: row.id,
        expiration_date: row.expiration_date,
        previous_expiration_date: term.expiration_date,
        extended_on: todayIn(zone, new Date(row.created_at)),
        reason: row.reason,
        reason_internal: row.reason_internal,
        created_by_name: row.created_by_name,
        created_at: row.created_at,
      });
      term.expiration_date = row.expiration_date;
      term.ended_on = row.ended_on ?? term.ended_on;
      continue;
    }
    terms.push({ ...row, extensions: [] });
  }
  const last = terms.at(-1);
  if (last && closedOn && !last.ended_on) last.ended_on = closedOn;
  return terms;
}
