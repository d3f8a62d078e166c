import { useId, type ReactNode } from "react";
import FormControl from "@mui/material/FormControl";
import FormHelperText from "@mui/material/FormHelperText";
import InputLabel from "@mui/material/InputLabel";
import OutlinedInput, { type OutlinedInputProps } from "@mui/material/OutlinedInput";
import type { SxProps, Theme } from "@mui/material/styles";
import { useController, type Control, type FieldPath, type FieldValues } from "react-hook-form";

export interface FormTextFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  /** Visible label; also the input's accessible name (getByLabel). */
  label: ReactNode;
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  /**
   * Marks the input aria-required. No asterisk is added to the label, so the label text stays
   * exactly the spec's (tests find fields by it); the zod schema does the actual check.
   */
  required?: boolean;
  disabled?: boolean;
  /** Defaults to true: forms stack full-width fields. */
  fullWidth?: boolean;
  placeholder?: string;
  helperText?: ReactNode;
  multiline?: boolean;
  minRows?: number;
  size?: "small" | "medium";
  startAdornment?: ReactNode;
  endAdornment?: ReactNode;
  /** Attributes for the <input> itself (inputMode, maxLength, min, step...). */
  htmlInputProps?: OutlinedInputProps["inputProps"];
  sx?: SxProps<Theme>;
}

/**
 * An outlined text input bound to react-hook-form: value, focus-on-error, and the field's
 * error message (from the zod schema or from the server's `fields`) as helper text.
 *
 * It renders what MUI's TextField renders for a text input, without TextField's built-in
 * Select (which drags Menu/Popover/Modal into every form chunk, the sign-in page included).
 * For a dropdown use MUI's `TextField select` or `Select` with react-hook-form's Controller.
 */
export function FormTextField<T extends FieldValues>({
  control,
  name,
  label,
  helperText,
  required,
  disabled,
  fullWidth = true,
  size,
  sx,
  htmlInputProps,
  ...inputProps
}: FormTextFieldProps<T>) {
  const { field, fieldState } = useController({ control, name });
  const id = useId();
  const message = fieldState.error?.message ?? helperText;
  const helperId = message ? `${id}-helper-text` : undefined;

  return (
    <FormControl
      variant="outlined"
      error={!!fieldState.error}
      disabled={disabled}
      fullWidth={fullWidth}
      size={size}
      sx={sx}
    >
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        {...inputProps}
        id={id}
        label={label}
        name={field.name}
        value={field.value ?? ""}
        onChange={field.onChange}
        onBlur={field.onBlur}
        inputRef={field.ref}
        inputProps={{ ...htmlInputProps, "aria-required": required || undefined }}
        aria-describedby={helperId}
      />
      {message ? <FormHelperText id={helperId}>{message}</FormHelperText> : null}
    </FormControl>
  );
}
