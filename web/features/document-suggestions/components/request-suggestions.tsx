import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import type { SuggestionField } from "../../../../shared/domain/document-reading.ts";
import type { DocumentReading } from "../../../../shared/schemas/document-readings.ts";
import { useCan } from "../../../lib/session.tsx";
import { isUnderWay, useRequestReadings } from "../api/readings.ts";
import { bestPerField, sameValue, shownValue, type CurrentValues } from "../suggestion-values.ts";
import { SuggestionsPanel } from "./suggestions-panel.tsx";

/** A request's fields (shared/domain/document-requests.ts) and the suggestion each is compared with. */
const REQUEST_TO_SUGGESTION: Record<string, SuggestionField> = {
  new_expiration_date: "expiration_date",
  new_permit_number: "permit_number",
  amount: "bond_amount",
  effective_date: "rider_effective_date",
};

/** What the party typed, under the suggestions' field names. */
function typedValues(values: Record<string, string | null | undefined>): CurrentValues {
  const current: CurrentValues = {};
  for (const [field, value] of Object.entries(values)) {
    const to = REQUEST_TO_SUGGESTION[field];
    if (to && value) current[to] = value;
  }
  return current;
}

/** "The document says Mar 31, 2027; the party typed Mar 30, 2027." for each field they disagree on. */
function disagreements(reading: DocumentReading, typed: CurrentValues, currency: string): string[] {
  return bestPerField(reading.suggestions).flatMap((s) => {
    const value = typed[s.field];
    if (!value || sameValue(s.field, s.value, value)) return [];
    return [
      `The document says ${shownValue(s.field, s.value, currency)}; the party typed ${shownValue(s.field, value, currency)}.`,
    ];
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
}: {
  requestId: string;
  typed: Record<string, string | null | undefined>;
  currency: string;
}) {
  const isStaff = useCan("attachments.upload");
  const readings = useRequestReadings(requestId, isStaff);
  const shown = (readings.data ?? []).filter((r) => isUnderWay(r) || r.suggestions.length > 0);
  if (!isStaff || !shown.length) return null;
  const current = typedValues(typed);
  return (
    <Box sx={{ display: "grid", gap: 1.5 }}>
      {shown.map((reading) => {
        const flagged = disagreements(reading, current, currency);
        return (
          <SuggestionsPanel
            key={reading.id}
            filename={reading.filename}
            reading={reading}
            current={current}
            currentLabel="The party typed"
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
