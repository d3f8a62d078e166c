import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import Check from "@mui/icons-material/Check";
import ErrorOutline from "@mui/icons-material/ErrorOutlineOutlined";
import HelpOutline from "@mui/icons-material/HelpOutlineOutlined";
import {
  DATE_SUGGESTION_FIELDS,
  SUGGESTION_FIELD_LABELS,
  type Suggestion,
} from "../../../../shared/domain/document-reading.ts";
import { compare, LOW_CONFIDENCE, shownValue, type CurrentValues } from "../suggestion-values.ts";

export interface SuggestionRowProps {
  suggestion: Suggestion;
  current: CurrentValues;
  /** What the value beside it is called: "Current" on a permit's page, "In the form" on the form. */
  currentLabel: string;
  currency: string | null;
  /** Why this field cannot be accepted here; null: it can. */
  refusal: string | null;
  isAccepted: boolean;
  /** Accept is offered (staff who may edit); false: the row is read-only. */
  canAccept: boolean;
  /** The value may be corrected before it is accepted (a permit's page; the form's own fields are editable). */
  canEdit?: boolean;
  isBusy: boolean;
  /** Accept this value: the suggestion's, or the person's correction of it. */
  onAccept: (value: string) => void;
}

const caption = { display: "block", color: "text.secondary", lineHeight: 1.4 } as const;

/**
 * One suggested value: its label, the value (as the app writes dates and amounts), the value there
 * now beside it with a 'Differs' chip when they differ (words, not only colour), where on the page
 * it was read, and Accept. On a phone the cells stack; from md up they are columns.
 */
export function SuggestionRow(props: SuggestionRowProps) {
  const { suggestion: s, current, currency } = props;
  const label = SUGGESTION_FIELD_LABELS[s.field];
  const shown = shownValue(s.field, s.value, currency);
  const comparison = compare(s, current);
  const now = current[s.field];
  const isLow = s.confidence < LOW_CONFIDENCE;
  // The person's correction while it is being edited; null: the suggestion as read.
  const [draft, setDraft] = useState<string | null>(null);
  const isEditing = draft !== null && !props.isAccepted;
  return (
    <Box
      component="li"
      aria-label={`${label}: ${shown}`}
      sx={{
        display: "grid",
        // A phone: the label, the two values side by side, where it was read, then Edit and Accept
        // on a row of their own (beside the label they wrapped into a column).
        // Read-only (a request's review): no column for Accept.
        gridTemplateColumns: {
          xs: "minmax(0, 1fr) minmax(0, 1fr)",
          md: props.canAccept
            ? "minmax(130px, 0.8fr) minmax(0, 1.3fr) minmax(0, 1fr) 168px"
            : "minmax(130px, 0.8fr) minmax(0, 1.3fr) minmax(0, 1.3fr)",
        },
        gridTemplateAreas: {
          xs: props.canAccept
            ? '"label label" "suggested current" "source source" "action action"'
            : '"label label" "suggested current" "source source"',
          md: props.canAccept
            ? '"label suggested current action" "label source current action"'
            : '"label suggested current" "label source current"',
        },
        columnGap: 2,
        rowGap: { xs: 1, md: 0.25 },
        alignItems: "start",
        py: 1.5,
        "& + &": { borderTop: 1, borderColor: "divider" },
      }}
    >
      <Box
        sx={{
          gridArea: "label",
          display: "flex",
          flexWrap: "wrap",
          alignItems: "center",
          gap: 0.75,
          minWidth: 0,
        }}
      >
        <Typography sx={{ fontWeight: 650, width: { md: "100%" } }}>{label}</Typography>
        {s.ambiguous ? (
          <Chip
            size="small"
            color="warning"
            variant="outlined"
            icon={<HelpOutline />}
            label="Ambiguous date"
            // Wraps in a narrow column rather than being cut short.
            sx={{ height: "auto", py: 0.25, "& .MuiChip-label": { whiteSpace: "normal" } }}
          />
        ) : null}
      </Box>
      <Box sx={{ gridArea: "suggested", minWidth: 0 }}>
        <Typography component="span" variant="caption" sx={caption}>
          Suggested
        </Typography>
        {isEditing ? (
          <TextField
            size="small"
            fullWidth
            autoFocus
            label={`${label} to save`}
            type={DATE_SUGGESTION_FIELDS.includes(s.field) ? "date" : "text"}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            sx={{ mt: 0.75 }}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        ) : (
          <Typography
            sx={{
              fontWeight: 650,
              overflowWrap: "anywhere",
              ...(comparison === "differs"
                ? { bgcolor: "action.selected", px: 0.5, mx: -0.5, borderRadius: 0.5, width: "fit-content" }
                : {}),
            }}
          >
            {shown}
          </Typography>
        )}
      </Box>
      <Box sx={{ gridArea: "source", minWidth: 0 }}>
        <Typography variant="caption" sx={{ ...caption, overflowWrap: "anywhere" }}>
          Page {s.page}: “{s.snippet}”
        </Typography>
        {s.ambiguous ? (
          <Typography variant="caption" sx={caption}>
            Written “{s.raw}”, which could be either date: read in the company’s date order.
          </Typography>
        ) : null}
        {isLow ? (
          <Typography variant="caption" sx={{ ...caption, display: "flex", alignItems: "center", gap: 0.5 }}>
            <ErrorOutline sx={{ fontSize: 16 }} aria-hidden />
            Low confidence: check it against the page.
          </Typography>
        ) : null}
      </Box>
      {comparison === "none" ? null : (
        <Box sx={{ gridArea: "current", minWidth: 0 }}>
          <Typography component="span" variant="caption" sx={caption}>
            {props.currentLabel}
          </Typography>
          <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", columnGap: 0.75, rowGap: 0.5 }}>
            <Typography sx={{ overflowWrap: "anywhere" }} color={now ? "text.primary" : "text.secondary"}>
              {now ? shownValue(s.field, now, currency) : "Not set"}
            </Typography>
            {comparison === "differs" ? (
              <Chip size="small" color="warning" label="Differs" sx={{ fontWeight: 600 }} />
            ) : comparison === "same" && !props.isAccepted ? (
              <Chip size="small" color="success" variant="outlined" icon={<Check />} label="Same" />
            ) : null}
          </Box>
        </Box>
      )}
      {props.canAccept ? (
        <Box sx={{ gridArea: "action", justifySelf: "end", alignSelf: { md: "center" } }}>
          <RowAction
            {...props}
            label={label}
            shown={shown}
            isSame={comparison === "same"}
            draft={isEditing ? draft : null}
            onDraft={setDraft}
          />
        </Box>
      ) : null}
    </Box>
  );
}

function RowAction({
  refusal,
  isAccepted,
  canAccept,
  canEdit,
  isBusy,
  onAccept,
  label,
  shown,
  isSame,
  suggestion,
  draft,
  onDraft,
}: SuggestionRowProps & {
  label: string;
  shown: string;
  isSame: boolean;
  draft: string | null;
  onDraft: (draft: string | null) => void;
}) {
  if (isAccepted)
    return <Chip size="small" color="success" icon={<Check />} label="Accepted" sx={{ fontWeight: 600 }} />;
  if (refusal)
    return (
      <Typography variant="caption" sx={{ ...caption, textAlign: { md: "right" } }}>
        {refusal}
      </Typography>
    );
  if (!canAccept || (isSame && draft === null)) return null;
  if (draft !== null)
    return (
      <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap", justifyContent: "flex-end" }}>
        <Button size="small" color="inherit" disabled={isBusy} onClick={() => onDraft(null)}>
          Cancel
        </Button>
        <Button
          variant="contained"
          size="small"
          disabled={isBusy || !draft.trim()}
          onClick={() => onAccept(draft.trim())}
          aria-label={`Accept ${label} as corrected`}
        >
          Accept
        </Button>
      </Box>
    );
  return (
    <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap", justifyContent: "flex-end" }}>
      {canEdit ? (
        <Button
          size="small"
          disabled={isBusy}
          onClick={() => onDraft(suggestion.value)}
          aria-label={`Edit ${label} before accepting`}
        >
          Edit
        </Button>
      ) : null}
      <Button
        variant="outlined"
        size="small"
        disabled={isBusy}
        onClick={() => onAccept(suggestion.value)}
        aria-label={`Accept ${label}: ${shown}`}
        sx={{ minWidth: 80 }}
      >
        Accept
      </Button>
    </Box>
  );
}
