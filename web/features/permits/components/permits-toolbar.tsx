import { useEffect, useState } from "react";
import DownloadIcon from "@mui/icons-material/Download";
import SearchIcon from "@mui/icons-material/Search";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { RECORD_TYPES, RECORD_TYPE_LABELS, type RecordType } from "../../../../shared/domain/statuses.ts";
import { PERMIT_SEARCH_MAX } from "../../../../shared/domain/permit-list.ts";
import type { PermitListQuery } from "../../../../shared/schemas/permits.ts";
import { buildUrl } from "../../../lib/api.ts";

/** The export of the current view: same filters and order as the list, every page (the server streams it). */
function exportUrl(query: PermitListQuery, format: "csv" | "xlsx") {
  return buildUrl("/api/permits/export", {
    format,
    q: query.q,
    record_type: query.record_type,
    show_archived: query.show_archived ? "1" : undefined,
    show_non_required: query.show_non_required ? "1" : undefined,
    sort: query.sort,
    dir: query.sort ? query.dir : undefined,
  });
}

const TYPING_DELAY_MS = 300;

/** Show/Hide Archived, Show Non-Required, the Type filter and the name filter (spec section 2). */
export function PermitsToolbar({
  query,
  onChange,
}: {
  query: PermitListQuery;
  onChange: (patch: Partial<PermitListQuery>, opts?: { replace?: boolean }) => void;
}) {
  const [name, setName] = useState(query.q ?? "");
  // A link or Back changes the URL under us: show what it says.
  const [urlName, setUrlName] = useState(query.q);
  if (urlName !== query.q) {
    setUrlName(query.q);
    if ((name.trim() || null) !== query.q) setName(query.q ?? "");
  }
  useEffect(() => {
    const next = name.trim() || null;
    if (next === query.q) return;
    // One history entry per pause in typing, not per key.
    const timer = window.setTimeout(() => onChange({ q: next }, { replace: true }), TYPING_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [name, query.q, onChange]);

  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1.5, mb: 2 }}>
      <TextField
        size="small"
        label="Filter by permit name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        sx={{ flex: "1 1 240px", maxWidth: { sm: 360 } }}
        slotProps={{
          htmlInput: { maxLength: PERMIT_SEARCH_MAX, type: "search" },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      <TextField
        select
        size="small"
        label="Type"
        value={query.record_type ?? ""}
        onChange={(e) => onChange({ record_type: (e.target.value || null) as RecordType | null })}
        sx={{ minWidth: 170 }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">All Types</MenuItem>
        {RECORD_TYPES.map((t) => (
          <MenuItem key={t} value={t}>
            {RECORD_TYPE_LABELS[t]}
          </MenuItem>
        ))}
      </TextField>
      <Button
        variant={query.show_archived ? "contained" : "outlined"}
        aria-pressed={query.show_archived}
        onClick={() => onChange({ show_archived: !query.show_archived })}
      >
        {query.show_archived ? "Hide Archived" : "Show Archived"}
      </Button>
      <FormControlLabel
        control={
          <Checkbox
            checked={query.show_non_required}
            onChange={(e) => onChange({ show_non_required: e.target.checked })}
          />
        }
        label="Show Non-Required"
      />
      <Box sx={{ display: "flex", gap: 1, ml: { md: "auto" } }}>
        <Button size="small" startIcon={<DownloadIcon />} href={exportUrl(query, "csv")} download>
          Export CSV
        </Button>
        <Button size="small" startIcon={<DownloadIcon />} href={exportUrl(query, "xlsx")} download>
          Export Excel
        </Button>
      </Box>
    </Box>
  );
}
