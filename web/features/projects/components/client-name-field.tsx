import { useMemo } from "react";
import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import { useController, type Control, type FieldValues, type Path } from "react-hook-form";
import { useClients } from "../../clients/index.ts";

/**
 * The Client field: free text with the company's clients as suggestions. A name that matches
 * one of them (in any case) is that client; any other name becomes a new client on save.
 */
export function ClientNameField<T extends FieldValues>({
  control,
  name,
  companyId,
  required,
}: {
  control: Control<T>;
  name: Path<T>;
  companyId: string;
  required?: boolean;
}) {
  const { field, fieldState } = useController({ control, name });
  // The company's clients, as suggestions.
  const suggestions = useClients(companyId, { enabled: !!companyId });
  const options = useMemo(() => suggestions.data?.clients.map((c) => c.name) ?? [], [suggestions.data]);
  const typed = String(field.value ?? "").trim();
  const isNew =
    typed !== "" && suggestions.isSuccess && !options.some((o) => o.toLowerCase() === typed.toLowerCase());
  return (
    <Autocomplete
      freeSolo
      options={options}
      inputValue={field.value ?? ""}
      onInputChange={(_event, value) => field.onChange(value)}
      loading={suggestions.isFetching}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Client"
          name={field.name}
          inputRef={field.ref}
          onBlur={field.onBlur}
          error={!!fieldState.error}
          helperText={
            fieldState.error?.message ??
            (isNew
              ? `"${typed}" is a new client: it will be created.`
              : "Pick an existing client or type a new name.")
          }
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, "aria-required": required || undefined },
          }}
        />
      )}
    />
  );
}
