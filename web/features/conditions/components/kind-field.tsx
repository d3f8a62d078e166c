import { useId } from "react";
import { useController, type Control, type FieldPath, type FieldValues } from "react-hook-form";
import TextField from "@mui/material/TextField";
import type { SxProps, Theme } from "@mui/material/styles";

/**
 * An event's kind: free text with the kinds to offer as suggestions (the defaults and those the
 * company used), through the browser's own list (a phone shows them above its keyboard).
 */
export function KindField<T extends FieldValues>({
  control,
  name,
  label,
  kinds,
  maxLength,
  helperText,
  sx,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  kinds: readonly string[];
  maxLength: number;
  helperText?: string;
  sx?: SxProps<Theme>;
}) {
  const { field, fieldState } = useController({ control, name });
  const listId = useId();
  return (
    <>
      <TextField
        fullWidth
        label={label}
        name={field.name}
        value={field.value ?? ""}
        onChange={field.onChange}
        onBlur={field.onBlur}
        inputRef={field.ref}
        error={!!fieldState.error}
        helperText={fieldState.error?.message ?? helperText}
        autoComplete="off"
        sx={sx}
        slotProps={{ htmlInput: { list: listId, maxLength, "aria-required": true } }}
      />
      <datalist id={listId}>
        {kinds.map((kind) => (
          <option key={kind} value={kind} />
        ))}
      </datalist>
    </>
  );
}
