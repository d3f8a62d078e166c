import { useState } from "react";
import Box from "@mui/material/Box";
import AutoAwesomeOutlined from "@mui/icons-material/AutoAwesomeOutlined";
import type { Suggestion, SuggestionField } from "../../../../shared/domain/document-reading.ts";
import type { DocumentReading } from "../../../../shared/schemas/document-readings.ts";
import type { PermitDetail } from "../../../../shared/schemas/permit-detail.ts";
import { DetailCard } from "../../../components/detail-card.tsx";
import { useCan } from "../../../lib/session.tsx";
import { isUnderWay, useAcceptSuggestions, usePermitReadings } from "../api/readings.ts";
import { bestPerField, compare, suggestionKey, type CurrentValues } from "../suggestion-values.ts";
import { SuggestionsPanel } from "./suggestions-panel.tsx";

const BOND_FIELDS: readonly SuggestionField[] = [
  "bond_number",
  "bond_amount",
  "surety_company",
  "rider_effective_date",
];
const INSPECTION_FIELDS: readonly SuggestionField[] = ["inspection_result", "inspection_date"];
/** On a bond, an amount with its effective date is one rider: accepting either takes both. */
const RIDER_FIELDS: readonly SuggestionField[] = ["bond_amount", "rider_effective_date"];

/** The permit's values the suggestions are compared with (the bond's current amount, after its riders). */
function currentOf(permit: PermitDetail): CurrentValues {
  const isBond = permit.record_type === "bond";
  return {
    permit_number: permit.permit_number,
    issue_date: permit.issue_date,
    expiration_date: permit.expiration_date,
    agency: permit.agency,
    ...(isBond
      ? {
          bond_number: permit.bond_number,
          bond_amount: permit.current_amount ?? permit.bond_amount,
          surety_company: permit.surety_company,
        }
      : {}),
  };
}

/**
 * Why a value cannot be accepted on this record: a bond's values on a permit, an inspection on a
 * bond, and a rider's effective date once the bond carries the document's amount (a second rider
 * would add nothing).
 */
function refusalFor(permit: PermitDetail, reading: DocumentReading) {
  const isBond = permit.record_type === "bond";
  const current = currentOf(permit);
  const amount = bestPerField(reading.suggestions).find((s) => s.field === "bond_amount");
  const hasAmount = !!amount && compare(amount, current) === "same";
  return (field: SuggestionField) => {
    if (!isBond && BOND_FIELDS.includes(field)) return "A bond’s value: not saved on a permit.";
    if (isBond && INSPECTION_FIELDS.includes(field)) return "A permit’s inspection: not saved on a bond.";
    if (isBond && field === "rider_effective_date" && hasAmount) return "The bond has this amount already.";
    return null;
  };
}

/** Something left to accept: a value that differs or is not there yet. */
function hasOpen(permit: PermitDetail, reading: DocumentReading) {
  const current = currentOf(permit);
  const refusal = refusalFor(permit, reading);
  return reading.suggestions.some((s) => !refusal(s.field) && compare(s, current) !== "same");
}

/**
 * 'Document Suggestions' on a permit's or bond's page (issue 28): one panel per current file the
 * reader found values in. Accept saves through the permit's normal edit (a bond's amount and
 * effective date as a rider in its Bond Ledger), with 'from document X, page N' in the audit
 * trail. Staff only: a client-user is never asked (the API answers 403).
 */
export function PermitDocumentSuggestions({ permit, currency }: { permit: PermitDetail; currency: string }) {
  const isStaff = useCan("attachments.upload");
  const readings = usePermitReadings(permit.id, isStaff);
  // A file read or accepted from while the page is open keeps its panel (even when nothing was
  // found in it, or nothing is left to accept); an older one only while it has something to accept.
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set());
  const keep = (ids: string[]) => setKept((was) => new Set([...was, ...ids]));
  const newlyUnderWay = (readings.data ?? []).filter((r) => isUnderWay(r) && !kept.has(r.id));
  if (newlyUnderWay.length) keep(newlyUnderWay.map((r) => r.id));
  const shown = (readings.data ?? []).filter((r) => isUnderWay(r) || kept.has(r.id) || hasOpen(permit, r));
  if (!isStaff || !shown.length) return null;
  return (
    <DetailCard title="Document Suggestions" icon={<AutoAwesomeOutlined />}>
      <Box sx={{ display: "grid", gap: 2 }}>
        {shown.map((reading) => (
          <ReadingPanel
            key={reading.id}
            permit={permit}
            reading={reading}
            currency={currency}
            onAccepted={() => keep([reading.id])}
          />
        ))}
      </Box>
    </DetailCard>
  );
}

function ReadingPanel({
  permit,
  reading,
  currency,
  onAccepted,
}: {
  permit: PermitDetail;
  reading: DocumentReading;
  currency: string;
  onAccepted: () => void;
}) {
  const accept = useAcceptSuggestions(permit.id, reading.filename);
  const [accepted, setAccepted] = useState<ReadonlySet<string>>(new Set());
  const isBond = permit.record_type === "bond";
  const current = currentOf(permit);
  const refusal = refusalFor(permit, reading);

  const onAccept = (chosen: Suggestion[]) => {
    let fields = chosen;
    if (isBond && chosen.some((s) => RIDER_FIELDS.includes(s.field))) {
      // The other half of the rider, when the reader found it and it is not taken already.
      const partner = bestPerField(reading.suggestions).filter(
        (s) =>
          RIDER_FIELDS.includes(s.field) &&
          !chosen.some((c) => c.field === s.field) &&
          !accepted.has(suggestionKey(s)) &&
          !refusal(s.field) &&
          compare(s, current) !== "same",
      );
      fields = [...chosen, ...partner];
    }
    accept.mutate(
      { reading_id: reading.id, fields: fields.map((s) => ({ field: s.field, value: s.value })) },
      {
        onSuccess: () => {
          onAccepted();
          setAccepted((was) => new Set([...was, ...fields.map(suggestionKey)]));
        },
      },
    );
  };

  return (
    <SuggestionsPanel
      filename={reading.filename}
      reading={reading}
      current={current}
      currency={currency}
      refusal={refusal}
      canAccept={permit.can.edit}
      canEdit
      accepted={accepted}
      isBusy={accept.isPending}
      onAccept={onAccept}
      headingLevel="h3"
      intro={
        isBond
          ? "Check each value against the document. Nothing is saved until you accept it; an amount and its effective date are saved together as a rider in the Bond Ledger."
          : undefined
      }
    />
  );
}
