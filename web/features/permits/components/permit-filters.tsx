import { useMemo } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import { isIsoDate } from "../../../../shared/domain/dates.ts";
import type { PermitFilterOptions, PermitListQuery } from "../../../../shared/schemas/permits.ts";
import { AutocompleteField } from "../../../components/autocomplete-field.tsx";
import { OutlinedField } from "../../../components/outlined-field.tsx";
import { usePermitFilterOptions } from "../api/get-filter-options.ts";
import { CLEAR_FILTERS } from "../../../../shared/domain/empty-states.ts";
import { CLEARED_FILTERS, isFiltered, type ChangeQuery } from "./list-params.ts";

type ProjectOption = PermitFilterOptions["projects"][number];
type ClientOption = PermitFilterOptions["clients"][number];
type PersonOption = { id: string; name: string; company_name: string | null };

/** 'Me' first (for staff), then the people responsible for permits the user can see. */
const ME: PersonOption = { id: "me", name: "Me", company_name: null };
const personLabel = (p: PersonOption) => (p.company_name ? `${p.name} · ${p.company_name}` : p.name);

const projectLabel = (p: ProjectOption) =>
  [p.name, p.project_number, p.company_name].filter(Boolean).join(" · ");
const clientLabel = (c: ClientOption) => (c.company_name ? `${c.name} · ${c.company_name}` : c.name);

/** The Tasks filter's one choice (issue 29): what the 'Tasks Due' tile counts. */
const TASKS_DUE = "Due within 7 days or overdue";

const field = { flex: { xs: "1 1 100%", sm: "1 1 200px" }, minWidth: 0 } as const;
const dateField = { flex: { xs: "1 1 140px", sm: "0 0 170px" } } as const;

/**
 * The list's Project, Client and Agency filters (choices from the server, within what the user can
 * see) and the expiration date range. Loaded after the rows; the pickers' own code (MUI's
 * Autocomplete) comes when the user reaches for one (AutocompleteField).
 */
export default function PermitFilters({
  query,
  onChange,
}: {
  query: PermitListQuery;
  onChange: ChangeQuery;
}) {
  const options = usePermitFilterOptions();
  const projects = useMemo(() => {
    const all = options.data?.projects ?? [];
    // With a client chosen, its projects only.
    return query.client_id ? all.filter((p) => p.client_id === query.client_id) : all;
  }, [options.data, query.client_id]);
  const project = options.data?.projects.find((p) => p.id === query.project_id) ?? null;
  const client = options.data?.clients.find((c) => c.id === query.client_id) ?? null;
  const people = useMemo(
    () => [...(options.data?.can_be_responsible ? [ME] : []), ...(options.data?.responsible ?? [])],
    [options.data],
  );
  const person = people.find((p) => p.id === query.responsible) ?? null;

  const setDate = (key: "expires_from" | "expires_to", value: string) => {
    const day = value && isIsoDate(value) ? value : null;
    const patch: Partial<PermitListQuery> = { [key]: day };
    // A range that would end before it starts keeps the end that was just chosen.
    if (day && key === "expires_from" && query.expires_to && query.expires_to < day) patch.expires_to = null;
    if (day && key === "expires_to" && query.expires_from && day < query.expires_from)
      patch.expires_from = null;
    onChange(patch);
  };

  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1.5 }}>
      <AutocompleteField
        label="Project"
        size="small"
        sx={field}
        options={projects}
        value={project}
        loading={options.isPending}
        getOptionLabel={projectLabel}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onChange={(p) => onChange({ project_id: p?.id ?? null })}
      />
      <AutocompleteField
        label="Client"
        size="small"
        sx={field}
        options={options.data?.clients ?? []}
        value={client}
        loading={options.isPending}
        getOptionLabel={clientLabel}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onChange={(c) => {
          const keepsProject = !c || !project || project.client_id === c.id;
          onChange({ client_id: c?.id ?? null, ...(keepsProject ? {} : { project_id: null }) });
        }}
      />
      <AutocompleteField
        label="Agency"
        size="small"
        sx={field}
        options={options.data?.agencies ?? []}
        value={query.agency}
        loading={options.isPending}
        onChange={(a) => onChange({ agency: a ?? null })}
      />
      <AutocompleteField
        label="Responsible"
        size="small"
        sx={field}
        options={people}
        value={person}
        loading={options.isPending}
        getOptionLabel={personLabel}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onChange={(p) => onChange({ responsible: p?.id ?? null })}
      />
      <AutocompleteField
        label="Tasks"
        size="small"
        sx={field}
        options={[TASKS_DUE]}
        value={query.tasks === "due" ? TASKS_DUE : null}
        onChange={(v) => onChange({ tasks: v ? "due" : null })}
      />
      <OutlinedField
        size="small"
        type="date"
        label="Expires from"
        value={query.expires_from ?? ""}
        onChange={(e) => setDate("expires_from", e.target.value)}
        sx={dateField}
        shrinkLabel
        htmlInputProps={{ max: query.expires_to ?? undefined }}
      />
      <OutlinedField
        size="small"
        type="date"
        label="Expires to"
        value={query.expires_to ?? ""}
        onChange={(e) => setDate("expires_to", e.target.value)}
        sx={dateField}
        shrinkLabel
        htmlInputProps={{ min: query.expires_from ?? undefined }}
      />
      {isFiltered(query) ? <Button onClick={() => onChange(CLEARED_FILTERS)}>{CLEAR_FILTERS}</Button> : null}
    </Box>
  );
}
