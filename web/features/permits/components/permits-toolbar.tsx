import { lazy, Suspense, useEffect, useState } from "react";
import DownloadIcon from "@mui/icons-material/Download";
import FilterListIcon from "@mui/icons-material/FilterList";
import SearchIcon from "@mui/icons-material/Search";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import InputAdornment from "@mui/material/InputAdornment";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { RECORD_TYPES, RECORD_TYPE_LABELS, type RecordType } from "../../../../shared/domain/statuses.ts";
import {
  PERMIT_GROUPINGS,
  PERMIT_GROUPING_LABELS,
  PERMIT_SEARCH_MAX,
  STATUS_FILTER_VALUES,
  type PermitGrouping,
  type StatusFilterValue,
} from "../../../../shared/domain/permit-list.ts";
import type { PermitListQuery } from "../../../../shared/schemas/permits.ts";
import { preloadAutocompleteFields } from "../../../components/autocomplete-field.tsx";
import { OutlinedField } from "../../../components/outlined-field.tsx";
import { preloadSelectFields, SelectField } from "../../../components/select-field.tsx";
import { buildUrl } from "../../../lib/api.ts";
import { extraFilterCount, viewParams, type ChangeQuery } from "./list-params.ts";

// The Project, Client and Agency pickers and the views bar load after the rows.
const PermitFilters = lazy(() => import("./permit-filters.tsx"));
const SavedViewsBar = lazy(() => import("./saved-views-bar.tsx"));

/** The export of the current view: same filters and order as the list, every page (the server streams it). */
function exportUrl(query: PermitListQuery, format: "csv" | "xlsx") {
  return buildUrl("/api/permits/export", { format, ...viewParams(query) });
}

const TYPING_DELAY_MS = 300;

const TYPE_OPTIONS = RECORD_TYPES.map((t) => ({ value: t, label: RECORD_TYPE_LABELS[t] }));
const STATUS_OPTIONS = STATUS_FILTER_VALUES.map((s) => ({ value: s, label: s }));
const GROUPING_OPTIONS = PERMIT_GROUPINGS.map((g) => ({ value: g, label: PERMIT_GROUPING_LABELS[g] }));

/**
 * The dropdowns' and pickers' code (MUI's Select and Autocomplete, with their popups) comes when
 * the pointer enters the toolbar, a finger touches it or the focus reaches it: the list's first
 * paint shows stand-ins that look the same.
 */
const preloadControls = () => {
  preloadSelectFields();
  preloadAutocompleteFields();
};

/**
 * The list's controls: the search box (permit number, name, agency, project), Type (spec), Status,
 * Group by, Show/Hide Archived and Show Non-Required (spec); below them the Project, Client,
 * Agency and expiration-range filters, then the saved views and the exports. On a phone the
 * filters beyond search, Type and Status fold behind a Filters button.
 */
export function PermitsToolbar({
  query,
  onChange,
  onApplyView,
}: {
  query: PermitListQuery;
  onChange: ChangeQuery;
  /** Shows a saved view: its parameters replace the current filters. */
  onApplyView: (params: URLSearchParams) => void;
}) {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down("md"));
  const extra = extraFilterCount(query);
  const [isOpen, setIsOpen] = useState(extra > 0);
  const showsAll = !isPhone || isOpen;

  return (
    <Box
      sx={{ mb: 2, display: "grid", gap: 1.5 }}
      onPointerEnter={preloadControls}
      onTouchStart={preloadControls}
      onFocus={preloadControls}
    >
      <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1.5 }}>
        <SearchBox query={query} onChange={onChange} />
        <SelectField
          size="small"
          label="Type"
          value={query.record_type ?? ""}
          options={[{ value: "", label: "All Types" }, ...TYPE_OPTIONS]}
          displayEmpty
          onChange={(value) => onChange({ record_type: (value || null) as RecordType | null })}
          // Wide enough for its longest choice, 'Bond / Guarantee' (issue 25: values were cut at 1280).
          sx={{ flex: { xs: "1 1 140px", md: "0 0 190px" } }}
        />
        <SelectField
          size="small"
          label="Status"
          value={query.status ?? ""}
          // Without a status the Show Non-Required rule of the spec decides.
          options={[
            { value: "", label: query.show_non_required ? "All statuses" : "Required only" },
            ...STATUS_OPTIONS,
          ]}
          displayEmpty
          onChange={(value) => onChange({ status: (value || null) as StatusFilterValue | null })}
          sx={{ flex: { xs: "1 1 140px", md: "0 0 170px" } }}
        />
        {isPhone ? (
          <Button
            variant={isOpen ? "contained" : "outlined"}
            startIcon={<FilterListIcon />}
            aria-expanded={isOpen}
            aria-controls="permit-more-filters"
            onClick={() => setIsOpen(!isOpen)}
            sx={{ flex: "1 1 140px" }}
          >
            {extra ? `Filters (${extra})` : "Filters"}
          </Button>
        ) : null}
        {showsAll ? (
          <>
            <SelectField
              size="small"
              label="Group by"
              value={query.group}
              options={GROUPING_OPTIONS}
              onChange={(value) => onChange({ group: value as PermitGrouping })}
              sx={{ flex: { xs: "1 1 100%", sm: "1 1 200px", md: "0 0 200px" } }}
            />
            <Box
              sx={{ display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap", ml: { md: "auto" } }}
            >
              <Button
                variant={query.show_archived ? "contained" : "outlined"}
                aria-pressed={query.show_archived}
                onClick={() => onChange({ show_archived: !query.show_archived })}
              >
                {query.show_archived ? "Hide Archived" : "Show Archived"}
              </Button>
              <FormControlLabel
                sx={{ mr: 0 }}
                control={
                  <Checkbox
                    checked={query.show_non_required}
                    // The checkbox and a chosen status would disagree: the checkbox wins.
                    onChange={(e) => onChange({ show_non_required: e.target.checked, status: null })}
                  />
                }
                label="Show Non-Required"
              />
            </Box>
          </>
        ) : null}
      </Box>
      {showsAll ? (
        <Box id="permit-more-filters">
          <Suspense fallback={<Box sx={{ minHeight: 40 }} />}>
            <PermitFilters query={query} onChange={onChange} />
          </Suspense>
        </Box>
      ) : null}
      <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1.5 }}>
        <Box sx={{ flex: "1 1 320px", minWidth: 0 }}>
          <Suspense fallback={<Box sx={{ minHeight: 36 }} />}>
            <SavedViewsBar query={query} onApply={onApplyView} />
          </Suspense>
        </Box>
        {/* On a phone the exports come after the list (issue 25: the work first). */}
        {isPhone ? null : <PermitExports query={query} />}
      </Box>
    </Box>
  );
}

/** Export CSV and Export Excel of the current view. */
export function PermitExports({ query }: { query: PermitListQuery }) {
  return (
    <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
      <Button startIcon={<DownloadIcon />} href={exportUrl(query, "csv")} download>
        Export CSV
      </Button>
      <Button startIcon={<DownloadIcon />} href={exportUrl(query, "xlsx")} download>
        Export Excel
      </Button>
    </Box>
  );
}

/** One box over permit number, name, agency and project; the URL follows each pause in typing. */
function SearchBox({ query, onChange }: { query: PermitListQuery; onChange: ChangeQuery }) {
  const [text, setText] = useState(query.q ?? "");
  // A link, Back or a saved view changes the URL under us: show what it says.
  const [urlText, setUrlText] = useState(query.q);
  if (urlText !== query.q) {
    setUrlText(query.q);
    if ((text.trim() || null) !== query.q) setText(query.q ?? "");
  }
  useEffect(() => {
    const next = text.trim() || null;
    if (next === query.q) return;
    // One history entry per pause in typing, not per key.
    const timer = window.setTimeout(() => onChange({ q: next }, { replace: true }), TYPING_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [text, query.q, onChange]);

  return (
    <OutlinedField
      size="small"
      label="Search permits"
      placeholder="Number, name, agency, project"
      value={text}
      onChange={(e) => setText(e.target.value)}
      sx={{ flex: { xs: "1 1 100%", sm: "1 1 240px" }, maxWidth: { md: 420 } }}
      htmlInputProps={{ maxLength: PERMIT_SEARCH_MAX, type: "search" }}
      startAdornment={
        <InputAdornment position="start">
          <SearchIcon fontSize="small" />
        </InputAdornment>
      }
    />
  );
}
