import { useQuery } from "@tanstack/react-query";
import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import TextField, { type TextFieldProps } from "@mui/material/TextField";
import { api } from "../lib/api.ts";

export interface CompanyOption {
  id: string;
  name: string;
}

/** GET /api/companies, reduced to what a picker needs: id and name, by name. */
export function useCompanyOptions(enabled = true) {
  return useQuery({
    queryKey: ["companies", "options"],
    queryFn: async ({ signal }) => {
      const { companies } = await api.get<{ companies: CompanyOption[] }>("/api/companies", { signal });
      return companies
        .map(({ id, name }) => ({ id, name }))
        .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" }));
    },
    enabled,
    staleTime: 60_000,
  });
}

/**
 * The super-admin's company picker (spec section 6: company selectors are super-admin only).
 * `value` "" shows the placeholder; `allLabel` adds a choice meaning "every company".
 */
export function CompanySelect({
  value,
  onChange,
  label = "Company",
  placeholder = "Select Company",
  allLabel,
  ...props
}: {
  value: string;
  onChange: (companyId: string) => void;
  label?: string;
  placeholder?: string;
  allLabel?: string;
} & Omit<TextFieldProps, "value" | "onChange" | "select" | "children">) {
  const companies = useCompanyOptions();
  return (
    <TextField
      {...props}
      select
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={props.error || companies.isError}
      helperText={companies.isError ? "Unable to load companies." : props.helperText}
      slotProps={{
        ...props.slotProps,
        select: {
          displayEmpty: true,
          renderValue: (selected) =>
            (selected as string)
              ? (companies.data?.find((c) => c.id === selected)?.name ?? "…")
              : (allLabel ?? (
                  <Box component="span" sx={{ color: "text.secondary" }}>
                    {placeholder}
                  </Box>
                )),
        },
        inputLabel: { shrink: true },
      }}
    >
      {allLabel ? <MenuItem value="">{allLabel}</MenuItem> : null}
      {companies.isPending ? (
        <MenuItem disabled value="__loading">
          Loading companies...
        </MenuItem>
      ) : null}
      {(companies.data ?? []).map((c) => (
        <MenuItem key={c.id} value={c.id}>
          {c.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
