import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import type { SuggestionField } from "../../../../shared/domain/document-reading.ts";
import type { DocumentReading } from "../../../../shared/schemas/document-readings.ts";
import { formatAmountChange } from "../../../lib/format.ts";
import { useCan } from "../../../lib/session.tsx";
import { isUnderWay, useRequestReadings } from "../api/readings.ts";
import { bestPerField, sameValue, shownValue, type CurrentValues } from "../suggestion-values.ts";
import { SuggestionsPanel } from "./suggestions-panel.tsx";

/**
 * A request's fields (shared/domain/document-requests.ts) and the suggestion each is compared with.
 * A rider's Amount is the change the party typed (+25,000); the document states the bond's new
 * amount: the change is compared as the amount it makes (with the bond's amount now).
 */
const REQUEST_TO_SUGGESTION: Record<string, SuggestionField> = {
  new_expiration_date: "expiration_date",
  new_permit_number: "permit_number",
  amount: "bond_amount",
  effective_date: "rider_effective_date",
};

/** What the party typed, under the suggestions' field names (a rider's change as the amount it makes). */
function typedValues(values: Record<string, string | null | undefined>, bondAmount: string | null) {
  const current: CurrentValues = {};
  for (const [field, value] of Object.entries(values)) {
    const to = REQUEST_TO_SUGGESTION[field];
    if (!to || !value) continue;
    if (field === "amount") {
      const change = Number(value.replace(/[^\d.-]/g, ""));
      if (bondAmount === null || !Number.isFinite(change)) continue;
      current[to] = (Number(bondAmount) + change).toFixed(2);
    } else current[to] = value;
  }
  return current;
}

/** "The document says Mar 31, 2027; the party typed Mar 30, 2027." for each field they disagree on. */
function disagreements(
  reading: DocumentReading,
  typed: CurrentValues,
  raw: Record<string, string | null | undefined>,
  currency: string,
): string[] {
  return bestPerField(reading.suggestions).flatMap((s) => {
    const value = typed[s.field];
    if (!value || sameValue(s.field, s.value, value)) return [];
    const says = `The document says ${shownValue(s.field, s.value, currency)}`;
    if (s.field === "bond_amount" && raw.amount) {
      const change = formatAmountChange(raw.amount.replace(/[^\d.-]/g, ""), currency);
      return [`${says}; the party typed ${change}, which makes ${shownValue(s.field, value, currency)}.`];
    }
    return [`${says}; the party typed ${shownValue(s.field, value, currency)}.`];
  });
}

/**
 * The review of a party's submission (issue 28): what the reader found in the files sent, beside
 * what the party typed, with each disagreement said in words. Read-only: approving applies the
 * party's values as before. Staff only (the API answers a client-user 403: never asked).
 */
export function RequestSuggestions({
  requestId,
  typed,
  currency,
  bondAmount,
}: {
  requestId: string;
  typed: Record<string, string | null | undefined>;
  currency: string;
  /** A bond's amount now, to see the amount a rider's typed change makes; null: not a bond. */
  bondAmount: string | null;
}) {
  const isStaff = useCan("attachments.upload");
  const readings = useRequestReadings(requestId, isStaff);
  const shown = (readings.data ?? []).filter((r) => isUnderWay(r) || r.suggestions.length > 0);
  if (!isStaff || !shown.length) return null;
  const current = typedValues(typed, bondAmount);
  return (
    <Box sx={{ display: "grid", gap: 1.5 }}>
      {shown.map((reading) => {
        const flagged = disagreements(reading, current, typed, currency);
        return (
          <SuggestionsPanel
            key={reading.id}
            filename={reading.filename}
            reading={reading}
            current={current}
            currentLabel="From the party"
            currency={currency}
            canAccept={false}
            headingLevel="h3"
            intro="What the document says, beside what the party typed. Approving saves the party’s values."
          >
            {flagged.length ? (
              <Alert severity="warning" sx={{ mt: 1 }}>
                {flagged.map((line) => (
                  <Box key={line}>{line}</Box>
                ))}
              </Alert>
            ) : null}
          </SuggestionsPanel>
        );
      })}
    </Box>
  );
}
