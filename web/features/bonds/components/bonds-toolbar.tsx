import { useEffect, useState } from "react";
import DownloadIcon from "@mui/icons-material/Download";
import FilterListIcon from "@mui/icons-material/FilterList";
import SearchIcon from "@mui/icons-material/Search";
import TableChartOutlined from "@mui/icons-material/TableChartOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import TextField, { type TextFieldProps } from "@mui/material/TextField";
import { BOND_STATUSES, BOND_STATUS_LABELS, type BondStatus } from "../../../../shared/domain/bonds.ts";
import { GUARANTEE_TYPES, type GuaranteeType } from "../../../../shared/domain/statuses.ts";
import { BOND_LIMITS, type BondListQuery } from "../../../../shared/schemas/bonds.ts";
import { useIsPhone } from "../../../components/record-cards.tsx";
import { useCan } from "../../../lib/session.tsx";
import { CompanySelect } from "../../companies/index.ts";
import { usePermitFilterOptions } from "../../permits/index.ts";
import { useSureties } from "../../sureties/index.ts";
import { bondExportUrl, bondFilterCount, bondScheduleUrl, type ChangeBondQuery } from "./bond-list-params.ts";

const TYPING_DELAY_MS = 300;

const selectProps = (label: string): Partial<TextFieldProps> => ({
  select: true,
  size: "small",
  label,
  sx: { flex: { xs: "1 1 100%", sm: "1 1 170px", md: "0 1 190px" }, minWidth: 0 },
  slotProps: { select: { displayEmpty: true }, inputLabel: { shrink: true } },
});

/**
 * The Bonds page's controls: search, the Surety, Client, Status and Type filters (and Company for a
 * super-admin), a project chosen from 'Exposure by Project' as a removable chip, and the exports of
 * the current view: Export CSV, Export Excel, and the Bond Schedule (Excel) of its open bonds. On
 * a phone the filters fold behind a Filters button.
 */
export function BondsToolbar({
  query,
  onChange,
  canExport,
}: {
  query: BondListQuery;
  onChange: ChangeBondQuery;
  canExport: boolean;
}) {
  const isPhone = useIsPhone();
  const isSuperAdmin = useCan("allCompanies");
  const count = bondFilterCount(query);
  const [isOpen, setIsOpen] = useState(count > 0);
  const showsFilters = !isPhone || isOpen;
  const sureties = useSureties(query.company_id);
  const options = usePermitFilterOptions(showsFilters || !!query.project_id);
  const clients = options.data?.clients ?? [];
  const project = query.project_id ? options.data?.projects.find((p) => p.id === query.project_id) : null;

  return (
    <Box sx={{ mb: 2, display: "grid", gap: 1.5 }}>
      <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1.5 }}>
        <SearchBox query={query} onChange={onChange} />
        {isPhone ? (
          <Button
            variant={isOpen ? "contained" : "outlined"}
            startIcon={<FilterListIcon />}
            aria-expanded={isOpen}
            aria-controls="bond-filters"
            onClick={() => setIsOpen(!isOpen)}
            sx={{ flex: "1 1 140px" }}
          >
            {count ? `Filters (${count})` : "Filters"}
          </Button>
        ) : null}
        {showsFilters ? (
          // On a laptop the filters sit in the search's row; on a phone they fold below it.
          <Box
            id="bond-filters"
            sx={{
              display: { xs: "flex", md: "contents" },
              flexWrap: "wrap",
              alignItems: "center",
              gap: 1.5,
              width: "100%",
            }}
          >
            {isSuperAdmin ? (
              <CompanySelect
                size="small"
                value={query.company_id ?? ""}
                allLabel="All companies"
                onChange={(id) =>
                  onChange({ company_id: id || null, surety_id: null, client_id: null, project_id: null })
                }
                sx={{ flex: { xs: "1 1 100%", sm: "1 1 170px", md: "0 1 200px" }, minWidth: 0 }}
              />
            ) : null}
            <TextField
              {...selectProps("Surety")}
              value={query.surety_id ?? ""}
              onChange={(e) => onChange({ surety_id: e.target.value || null })}
            >
              <MenuItem value="">All sureties</MenuItem>
              <MenuItem value="none">No surety</MenuItem>
              {(sureties.data?.sureties ?? []).map((s) => (
                <MenuItem key={s.id} value={s.id}>
                  {s.name}
                </MenuItem>
              ))}
              {/* A surety from a link that the list does not hold (yet): keep the value shown. */}
              {query.surety_id &&
              query.surety_id !== "none" &&
              !sureties.data?.sureties.some((s) => s.id === query.surety_id) ? (
                <MenuItem value={query.surety_id}>
                  {sureties.isPending ? "Loading..." : "Unknown surety"}
                </MenuItem>
              ) : null}
            </TextField>
            <TextField
              {...selectProps("Client")}
              value={query.client_id ?? ""}
              onChange={(e) => onChange({ client_id: e.target.value || null })}
            >
              <MenuItem value="">All clients</MenuItem>
              {clients.map((c) => (
                <MenuItem key={c.id} value={c.id}>
                  {c.name}
                  {c.company_name ? ` · ${c.company_name}` : ""}
                </MenuItem>
              ))}
              {query.client_id && !clients.some((c) => c.id === query.client_id) ? (
                <MenuItem value={query.client_id}>
                  {options.isPending ? "Loading..." : "Unknown client"}
                </MenuItem>
              ) : null}
            </TextField>
            <TextField
              {...selectProps("Status")}
              value={query.status ?? ""}
              onChange={(e) => onChange({ status: (e.target.value || null) as BondStatus | null })}
            >
              <MenuItem value="">All statuses</MenuItem>
              {BOND_STATUSES.map((s) => (
                <MenuItem key={s} value={s}>
                  {BOND_STATUS_LABELS[s]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              {...selectProps("Type")}
              value={query.guarantee_type ?? ""}
              onChange={(e) => onChange({ guarantee_type: (e.target.value || null) as GuaranteeType | null })}
            >
              <MenuItem value="">All types</MenuItem>
              {GUARANTEE_TYPES.map((t) => (
                <MenuItem key={t} value={t}>
                  {t}
                </MenuItem>
              ))}
            </TextField>
            {query.project_id ? (
              <Chip
                label={`Project: ${project?.name ?? "…"}`}
                onDelete={() => onChange({ project_id: null })}
                sx={{ maxWidth: "100%" }}
              />
            ) : null}
          </Box>
        ) : null}
      </Box>
      {/* On a phone the exports come after the list (issue 25: the bonds first). */}
      {canExport && !isPhone ? <BondExports query={query} /> : null}
    </Box>
  );
}

/** Export CSV, Export Excel and the Bond Schedule of the current view. */
export function BondExports({ query }: { query: BondListQuery }) {
  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1, justifyContent: { md: "flex-end" } }}>
      <Button startIcon={<DownloadIcon />} href={bondExportUrl(query, "csv")} download>
        Export CSV
      </Button>
      <Button startIcon={<DownloadIcon />} href={bondExportUrl(query, "xlsx")} download>
        Export Excel
      </Button>
      <Button startIcon={<TableChartOutlined />} href={bondScheduleUrl(query)} download variant="outlined">
        Bond Schedule
      </Button>
    </Box>
  );
}

/** One box over numbers, names, surety, agency, project and client; the URL follows each pause in typing. */
function SearchBox({ query, onChange }: { query: BondListQuery; onChange: ChangeBondQuery }) {
  const [text, setText] = useState(query.q ?? "");
  const [urlText, setUrlText] = useState(query.q);
  if (urlText !== query.q) {
    setUrlText(query.q);
    if ((text.trim() || null) !== query.q) setText(query.q ?? "");
  }
  useEffect(() => {
    const next = text.trim() || null;
    if (next === query.q) return;
    const timer = window.setTimeout(() => onChange({ q: next }, { replace: true }), TYPING_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [text, query.q, onChange]);
  return (
    <TextField
      size="small"
      label="Search bonds"
      placeholder="Number, name, surety, obligee, project"
      value={text}
      onChange={(e) => setText(e.target.value)}
      sx={{ flex: { xs: "1 1 100%", sm: "1 1 260px" }, maxWidth: { md: 320 } }}
      slotProps={{
        htmlInput: { maxLength: BOND_LIMITS.search, type: "search" },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
