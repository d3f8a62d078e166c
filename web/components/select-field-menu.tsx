import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import type { SelectFieldProps } from "./select-field.tsx";

export interface SelectFieldMenuProps extends SelectFieldProps {
  /** The field's stand-in was clicked (or opened from the keyboard) before this code arrived. */
  openOnMount: boolean;
  /** The stand-in had the focus: the field takes it over. */
  focusOnMount: boolean;
}

/** SelectField's real field (select-field.tsx): MUI's TextField select with its menu. */
export default function SelectFieldMenu({
  label,
  value,
  options,
  onChange,
  displayEmpty = false,
  size,
  sx,
  openOnMount,
  focusOnMount,
}: SelectFieldMenuProps) {
  return (
    <TextField
      select
      size={size}
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      autoFocus={focusOnMount}
      sx={sx}
      slotProps={{
        select: { displayEmpty, defaultOpen: openOnMount },
        inputLabel: displayEmpty ? { shrink: true } : undefined,
      }}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
