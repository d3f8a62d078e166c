import { useLayoutEffect, useRef, useState } from "react";
import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import type { AutocompleteFieldProps } from "./autocomplete-field.tsx";

export interface AutocompleteFieldListProps<T> extends AutocompleteFieldProps<T> {
  /** What was typed in the stand-in before this code arrived. */
  initialText: string | null;
  /** The stand-in was clicked (or opened from the keyboard) before this code arrived. */
  openOnMount: boolean;
  /** The stand-in had the focus: the field takes it over. */
  focusOnMount: boolean;
}

/** AutocompleteField's real field (autocomplete-field.tsx): MUI's Autocomplete with its list. */
export default function AutocompleteFieldList<T>({
  label,
  options,
  value,
  onChange,
  getOptionLabel = String,
  isOptionEqualToValue,
  loading,
  size,
  sx,
  initialText,
  openOnMount,
  focusOnMount,
}: AutocompleteFieldListProps<T>) {
  const [isOpen, setIsOpen] = useState(openOnMount);
  const root = useRef<HTMLDivElement>(null);
  // What was typed into the stand-in is typed again into the input, as the user would have, before
  // the browser takes the next keystroke.
  useLayoutEffect(() => {
    const input = root.current?.querySelector("input");
    if (initialText === null || !input) return;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(input, initialText);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }, [initialText]);
  return (
    <Autocomplete
      ref={root}
      size={size}
      sx={sx}
      options={options}
      value={value}
      loading={loading}
      getOptionLabel={getOptionLabel}
      isOptionEqualToValue={isOptionEqualToValue}
      onChange={(_event, next) => onChange(next)}
      open={isOpen}
      onOpen={() => setIsOpen(true)}
      onClose={() => setIsOpen(false)}
      renderInput={(params) => <TextField {...params} label={label} autoFocus={focusOnMount} />}
    />
  );
}
