import { useId } from "react";
import { useController, type Control, type FieldPath, type FieldValues } from "react-hook-form";
import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField, { type TextFieldProps } from "@mui/material/TextField";
import { full } from "./step-dialog.tsx";

/** A choice of a select: its value, shown as is or with its label. */
export type FieldOption = string | { value: string; label: string };

type FieldProps<T extends FieldValues, C = unknown, O = T> = {
  control: Control<T, C, O>;
  name: FieldPath<T>;
  label: string;
  required?: boolean;
  maxLength?: number;
  /** Makes it a select of these choices. */
  options?: readonly FieldOption[];
  /** A select's first, disabled choice while none is made ("Select a status"). */
  emptyLabel?: string;
} & Omit<TextFieldProps, "name" | "label" | "value" | "onChange" | "required">;

/**
 * A text, date or select input bound to a react-hook-form form (a step dialog's, the permit form's),
 * with its error (the check's or the server's) below it.
 */
export function DialogField<T extends FieldValues, C = unknown, O = T>({
  control,
  name,
  label,
  required,
  maxLength,
  options,
  emptyLabel,
  ...textProps
}: FieldProps<T, C, O>) {
  const { field, fieldState } = useController({ control, name });
  const props = options ? { ...textProps, select: true } : textProps;
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
    >
      {options
        ? [
            ...(emptyLabel
              ? [
                  <MenuItem key="" value="" disabled>
                    {emptyLabel}
                  </MenuItem>,
                ]
              : []),
            ...options.map((option) => {
              const { value, label: text } =
                typeof option === "string" ? { value: option, label: option } : option;
              return (
                <MenuItem key={value} value={value}>
                  {text}
                </MenuItem>
              );
            }),
          ]
        : props.children}
    </TextField>
  );
}

/** A longer text across both columns of the dialog: a note, a reason. */
export function NoteField<T extends FieldValues, C = unknown, O = T>(
  props: Omit<FieldProps<T, C, O>, "multiline" | "minRows" | "sx">,
) {
  return <DialogField {...props} multiline minRows={2} sx={full} />;
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

/**
 * The 'Internal' switch of a note, a reason or a fee (issue 25), as the comment form's: ticked, what
 * it belongs to (`of`) is for the company's staff only. Named 'Internal' as it reads; the line below
 * it (its description) says of what, and who will read it.
 */
export function InternalField<T extends FieldValues>({
  control,
  name,
  of,
  sx,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  of: string;
  sx?: object;
}) {
  const { field } = useController({ control, name });
  const hintId = useId();
  return (
    <FormControl sx={{ alignSelf: "start", ...sx }}>
      <FormControlLabel
        control={
          <Checkbox
            name={field.name}
            checked={!!field.value}
            onChange={(e) => field.onChange(e.target.checked)}
            onBlur={field.onBlur}
            slotProps={{ input: { "aria-describedby": hintId, ref: field.ref } }}
          />
        }
        label="Internal"
      />
      <FormHelperText id={hintId} sx={{ mt: -0.5 }}>
        {field.value ? `${of}: your team only, never the client.` : `${of}: the client sees it too.`}
      </FormHelperText>
    </FormControl>
  );
}
