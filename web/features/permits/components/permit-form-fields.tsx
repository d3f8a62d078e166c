import { useId, type ReactNode } from "react";
import { useController } from "react-hook-form";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { PERMIT_LIMITS } from "../../../../shared/schemas/permits.ts";
import { DialogField } from "../../../components/dialog-kit/index.ts";
import type { PermitFormControl } from "./permit-form-values.ts";

/** Spans both columns of a section's grid. */
export const fullWidth = { gridColumn: "1 / -1" } as const;

/** A text, date or select input bound to the form, with its error (client or server) below it. */
export const Field = DialogField;

/** One titled card of the form, its fields in two columns (one on a phone). */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={id} variant="h2" sx={{ fontSize: "1.15rem", mb: 2 }}>
        {title}
      </Typography>
      <Box
        sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "repeat(2, minmax(0, 1fr))" }, gap: 2 }}
      >
        {children}
      </Box>
    </Paper>
  );
}

/** Agency: free text with the company's existing agencies as suggestions. */
export function AgencyField({
  control,
  options,
  loading,
}: {
  control: PermitFormControl;
  options: string[];
  loading: boolean;
}) {
  const { field, fieldState } = useController({ control, name: "agency" });
  return (
    <Autocomplete
      freeSolo
      options={options}
      loading={loading}
      inputValue={field.value ?? ""}
      onInputChange={(_event, value) => field.onChange(value)}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Agency"
          name={field.name}
          inputRef={field.ref}
          onBlur={field.onBlur}
          error={!!fieldState.error}
          helperText={fieldState.error?.message}
          slotProps={{
            ...params.slotProps,
            htmlInput: {
              ...params.slotProps.htmlInput,
              maxLength: PERMIT_LIMITS.agency,
              "aria-required": true,
            },
          }}
        />
      )}
    />
  );
}
