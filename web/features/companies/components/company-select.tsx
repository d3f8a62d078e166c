import { useMemo } from "react";
import { useController, type Control, type FieldPath, type FieldValues } from "react-hook-form";
import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import TextField, { type TextFieldProps } from "@mui/material/TextField";
import { useCompanies } from "../api/get-companies.ts";

export type CompanySelectProps = {
  value: string;
  onChange: (companyId: string) => void;
  label?: string;
  placeholder?: string;
  allLabel?: string;
} & Omit<TextFieldProps, "value" | "onChange" | "select" | "children">;

/** The companies a picker offers: id and name, by name whatever the case. */
function useCompanyOptions() {
  const companies = useCompanies();
  const options = useMemo(
    () =>
      companies.data?.companies
        .map(({ id, name }) => ({ id, name }))
        .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" })),
    [companies.data],
  );
  return { ...companies, options };
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
}: CompanySelectProps) {
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
              ? (companies.options?.find((c) => c.id === selected)?.name ?? "…")
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
      {(companies.options ?? []).map((c) => (
        <MenuItem key={c.id} value={c.id}>
          {c.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * The company picker of a react-hook-form form, with the field's error (schema or server) below
 * it. `value` overrides what it shows (a user with no company shows none).
 */
export function CompanyField<T extends FieldValues>({
  control,
  name,
  value,
  helperText,
  ...props
}: {
  control: Control<T>;
  name: FieldPath<T>;
  value?: string;
} & Omit<CompanySelectProps, "value" | "onChange" | "name">) {
  const { field, fieldState } = useController({ control, name });
  return (
    <CompanySelect
      {...props}
      value={value ?? field.value ?? ""}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={!!fieldState.error}
      helperText={fieldState.error?.message ?? helperText}
    />
  );
}
