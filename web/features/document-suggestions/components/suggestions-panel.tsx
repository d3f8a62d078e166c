import { useId, type ReactNode } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import DoneAll from "@mui/icons-material/DoneAll";
import type { Suggestion, SuggestionField } from "../../../../shared/domain/document-reading.ts";
import type { DocumentReading } from "../../../../shared/schemas/document-readings.ts";
import { isUnderWay } from "../api/readings.ts";
import {
  bestPerField,
  compare,
  sortSuggestions,
  suggestionKey,
  type CurrentValues,
} from "../suggestion-values.ts";
import { SuggestionRow } from "./suggestion-row.tsx";

export interface SuggestionsPanelProps {
  filename: string;
  /** The file's reading; none while the file is still being sent. */
  reading: DocumentReading | undefined;
  /** The file could not be sent to be read (the upload was refused), in words. */
  sendError?: string | null;
  /** The values there now, compared with the suggestions. */
  current: CurrentValues;
  /** "Current" on a permit's page; "In the form" on the form. */
  currentLabel?: string;
  currency: string | null;
  /** Why a field cannot be accepted here (not a field of this form); null: it can. */
  refusal?: (field: SuggestionField) => string | null;
  /** False: the suggestions are shown without Accept (to compare with what a party typed). */
  canAccept?: boolean;
  /** A value may be corrected before it is accepted (a permit's page). */
  canEdit?: boolean;
  /** What was accepted already (suggestionKey()). */
  accepted?: ReadonlySet<string>;
  isBusy?: boolean;
  onAccept?: (suggestions: Suggestion[]) => void;
  /** What saving means here, under the heading. */
  intro?: string;
  headingLevel?: "h2" | "h3";
  /** Shown under the rows (a request's disagreements). */
  children?: ReactNode;
}

/**
 * 'Suggested from site-plan.pdf': what the reader found in one file, each value beside the one
 * there now, with Accept and Accept All. Nothing is written until a person accepts. While the file
 * is read, a progress line; a file that could not be read, or with nothing found, says so.
 */
export function SuggestionsPanel(props: SuggestionsPanelProps) {
  const { filename, headingLevel = "h2" } = props;
  const headingId = useId();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0, borderRadius: 2 }}
    >
      <Typography
        id={headingId}
        component={headingLevel}
        variant="h3"
        sx={{ fontSize: "1.05rem", fontWeight: 650, overflowWrap: "anywhere" }}
      >
        Suggested from {filename}
      </Typography>
      <PanelBody {...props} />
    </Paper>
  );
}

function PanelBody(props: SuggestionsPanelProps) {
  const { filename, reading, sendError } = props;
  if (sendError)
    return (
      <Alert severity="warning" sx={{ mt: 1.5 }}>
        {sendError}
      </Alert>
    );
  if (!reading || isUnderWay(reading)) return <Progress filename={filename} reading={reading} />;
  if (reading.status === "failed")
    return (
      <Alert severity="warning" sx={{ mt: 1.5 }}>
        {filename} could not be read{reading.error ? `: ${reading.error}` : "."}
      </Alert>
    );
  return (
    <>
      {reading.notice ? (
        <Alert severity="info" sx={{ mt: 1.5 }}>
          {reading.notice}
        </Alert>
      ) : null}
      {reading.suggestions.length ? (
        <Rows {...props} reading={reading} />
      ) : (
        <Typography sx={{ mt: 1.5 }} color="text.secondary">
          No dates, numbers or amounts found in {filename}.
        </Typography>
      )}
      {props.children}
    </>
  );
}

function Progress({ filename, reading }: { filename: string; reading: DocumentReading | undefined }) {
  const pages =
    reading?.pageCount && reading.pagesRead
      ? ` page ${Math.min(reading.pagesRead + 1, reading.pageCount)} of ${reading.pageCount}`
      : "";
  return (
    <Box role="status" sx={{ display: "flex", alignItems: "center", gap: 1, mt: 1.5 }}>
      <CircularProgress size={18} aria-hidden />
      <Typography color="text.secondary">
        {reading ? `Reading ${filename}…${pages}` : `Sending ${filename} to be read…`}
      </Typography>
    </Box>
  );
}

function Rows(props: SuggestionsPanelProps & { reading: DocumentReading }) {
  const { reading, current, refusal, accepted, isBusy = false, onAccept, canAccept = true } = props;
  const rows = sortSuggestions(reading.suggestions);
  const isOpen = (s: Suggestion) =>
    !accepted?.has(suggestionKey(s)) && !refusal?.(s.field) && compare(s, current) !== "same";
  // One per field, the surest: what Accept All takes.
  const all = bestPerField(reading.suggestions).filter(isOpen);
  const canAcceptAll = canAccept && !!onAccept && all.length > 1;
  return (
    <>
      <Box
        sx={{
          display: "flex",
          flexWrap: "wrap",
          alignItems: "center",
          justifyContent: "space-between",
          gap: 1,
          mt: 0.5,
        }}
      >
        <Typography variant="body2" color="text.secondary" sx={{ flex: "1 1 240px" }}>
          {props.intro ?? "Check each value against the document. Nothing is saved until you accept it."}
        </Typography>
        {canAcceptAll ? (
          <Button
            variant="contained"
            size="small"
            startIcon={<DoneAll />}
            disabled={isBusy}
            onClick={() => onAccept(all)}
          >
            Accept All
          </Button>
        ) : null}
      </Box>
      <Box
        component="ul"
        aria-label={`Suggestions from ${props.filename}`}
        sx={{ listStyle: "none", m: 0, p: 0, mt: 0.5 }}
      >
        {rows.map((s) => (
          <SuggestionRow
            key={suggestionKey(s)}
            suggestion={s}
            current={current}
            currentLabel={props.currentLabel ?? "Current"}
            currency={props.currency}
            refusal={refusal?.(s.field) ?? null}
            isAccepted={!!accepted?.has(suggestionKey(s))}
            canAccept={canAccept && !!onAccept}
            isBusy={isBusy}
            canEdit={!!props.canEdit}
            onAccept={(value) => onAccept?.([{ ...s, value }])}
          />
        ))}
      </Box>
    </>
  );
}
