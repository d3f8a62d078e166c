import { useController, type Control, type FieldPath, type FieldValues } from "react-hook-form";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import InputAdornment from "@mui/material/InputAdornment";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField, { type TextFieldProps } from "@mui/material/TextField";
import { full } from "./step-dialog.tsx";

type FieldProps<T extends FieldValues> = {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  required?: boolean;
  maxLength?: number;
} & Omit<TextFieldProps, "name" | "label" | "value" | "onChange" | "required">;

/** A text, date or select input bound to a step dialog's form, with its error below it. */
export function DialogField<T extends FieldValues>({
  control,
  name,
  label,
  required,
  maxLength,
  ...props
}: FieldProps<T>) {
  const { field, fieldState } = useController({ control, name });
  return (
    <TextField
      {...props}
      fullWidth
      label={label}
      name={field.name}
      value={field.value ?? ""}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={!!fieldState.error}
      helperText={fieldState.error?.message ?? props.helperText}
      slotProps={{
        ...props.slotProps,
        htmlInput: { maxLength, "aria-required": required || undefined },
        ...(props.type === "date" || props.select ? { inputLabel: { shrink: true } } : {}),
        ...(props.select ? { select: { displayEmpty: true } } : {}),
      }}
    />
  );
}

/**
 * An amount in the company's currency (ISO 4217, shown before the number as the amounts' lists
 * show it, web/lib/format.ts): typed as text, checked by the contract's schema.
 */
export function MoneyField<T extends FieldValues>({
  currency,
  ...props
}: Omit<FieldProps<T>, "slotProps" | "inputMode"> & { currency: string }) {
  return (
    <DialogField
      {...props}
      inputMode="decimal"
      slotProps={{ input: { startAdornment: <InputAdornment position="start">{currency}</InputAdornment> } }}
    />
  );
}

/** Two or three choices side by side (Increase/Decrease, Amount/Percent), as radio buttons. */
export function ChoiceField<T extends FieldValues>({
  control,
  name,
  label,
  options,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  options: { value: string; label: string }[];
}) {
  const { field } = useController({ control, name });
  const labelId = `${String(name)}-label`;
  return (
    <FormControl sx={full}>
      <FormLabel id={labelId}>{label}</FormLabel>
      <RadioGroup row aria-labelledby={labelId} {...field}>
        {options.map((o) => (
          <FormControlLabel key={o.value} value={o.value} control={<Radio />} label={o.label} />
        ))}
      </RadioGroup>
    </FormControl>
  );
}
