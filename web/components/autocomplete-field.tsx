import { useId, useState, type ComponentType, type KeyboardEvent, type MouseEvent } from "react";
import ArrowDropDown from "@mui/icons-material/ArrowDropDown";
import Close from "@mui/icons-material/Close";
import Box from "@mui/material/Box";
import FormControl from "@mui/material/FormControl";
import IconButton from "@mui/material/IconButton";
import InputLabel from "@mui/material/InputLabel";
import OutlinedInput from "@mui/material/OutlinedInput";
import type { SxProps, Theme } from "@mui/material/styles";
import { onDemand, useIsLoaded } from "../lib/on-demand.ts";
import { TAP_TARGET } from "../lib/theme.ts";
import type { AutocompleteFieldListProps } from "./autocomplete-field-list.tsx";

export interface AutocompleteFieldProps<T> {
  /** Visible label; also the combobox's accessible name. */
  label: string;
  options: readonly T[];
  value: T | null;
  onChange: (value: T | null) => void;
  /** Defaults to String (options that are strings). */
  getOptionLabel?: (option: T) => string;
  isOptionEqualToValue?: (option: T, value: T) => boolean;
  loading?: boolean;
  size?: "small" | "medium";
  sx?: SxProps<Theme>;
}

// MUI's Autocomplete brings its Popper (popper.js) and TextField: fetched on intent.
const list = onDemand<AutocompleteFieldListProps<unknown>>(() => import("./autocomplete-field-list.tsx"));

/** Starts fetching the pickers' code, e.g. when the pointer enters a toolbar of them. */
export function preloadAutocompleteFields(): void {
  void list.load();
}

/**
 * A picker with type-ahead: MUI's Autocomplete in an outlined TextField, whose code comes when the
 * pointer first comes near a picker, it takes the focus or a finger touches it. Until then a
 * stand-in that looks and reads the same (a combobox input named by its label, holding the chosen
 * option's label) holds its place; clicked, opened from the keyboard or typed in before the code
 * is here, the picker opens (with what was typed) as soon as it is.
 */
export function AutocompleteField<T>(props: AutocompleteFieldProps<T>) {
  const isLoaded = useIsLoaded(list);
  const [typed, setTyped] = useState<string | null>(null);
  const [wantsOpen, setWantsOpen] = useState(false);
  const [hasFocus, setHasFocus] = useState(false);
  const id = useId();
  if (isLoaded) {
    const List = list.Component as ComponentType<AutocompleteFieldListProps<T>>;
    return (
      // Opened and given the focus only if the stand-in still has it when the code arrives.
      <List
        {...props}
        initialText={hasFocus ? typed : null}
        openOnMount={wantsOpen && hasFocus}
        focusOnMount={hasFocus}
      />
    );
  }

  const { label, value, getOptionLabel = String, size = "medium", sx } = props;
  const isSmall = size === "small";
  const hasClear = value !== null;
  const load = () => void list.load();
  const open = () => {
    setWantsOpen(true);
    load();
  };
  return (
    <Box
      onPointerEnter={load}
      onTouchStart={load}
      sx={[
        (theme) => ({
          // Autocomplete's styles for an outlined input with its popup (and clear) button.
          "& .MuiOutlinedInput-root": {
            padding: isSmall ? "6px" : "9px",
            paddingRight: `${(hasClear ? 52 : 26) + 4 + 9}px`,
            // The theme's MuiAutocomplete inputRoot override: a phone's tap target.
            [theme.breakpoints.down("md")]: { minHeight: TAP_TARGET },
          },
          "& .MuiAutocomplete-input": {
            width: 0,
            minWidth: 30,
            flexGrow: 1,
            textOverflow: "ellipsis",
            padding: isSmall ? "2.5px 4px 2.5px 8px" : "7.5px 4px 7.5px 5px",
          },
        }),
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <FormControl variant="outlined" size={isSmall ? "small" : undefined} fullWidth>
        <InputLabel htmlFor={id} id={`${id}-label`}>
          {label}
        </InputLabel>
        <OutlinedInput
          id={id}
          label={label}
          fullWidth
          value={typed ?? (value === null ? "" : getOptionLabel(value))}
          className="MuiAutocomplete-inputRoot"
          onChange={(event) => {
            setTyped(event.target.value);
            open();
          }}
          onFocus={() => {
            setHasFocus(true);
            load();
          }}
          onBlur={() => {
            // Left before the code came: nothing is replayed and nothing opens (the real picker
            // drops typed text on blur too).
            setHasFocus(false);
            setWantsOpen(false);
            setTyped(null);
          }}
          inputProps={{
            className: "MuiAutocomplete-input",
            role: "combobox",
            "aria-expanded": false,
            "aria-autocomplete": "list",
            autoComplete: "off",
            autoCapitalize: "none",
            spellCheck: false,
            onMouseDown: (event: MouseEvent) => {
              if (event.button === 0) open();
            },
            onKeyDown: (event: KeyboardEvent) => {
              if (event.key === "ArrowDown" || event.key === "ArrowUp") open();
            },
          }}
          endAdornment={
            <Box sx={{ position: "absolute", right: 9, top: "50%", transform: "translate(0, -50%)" }}>
              {hasClear ? (
                // Shown by the real picker on hover and focus; here it keeps the same room.
                <IconButton
                  tabIndex={-1}
                  aria-label="Clear"
                  title="Clear"
                  sx={{ marginRight: "-2px", padding: "4px", visibility: "hidden" }}
                >
                  <Close fontSize="small" />
                </IconButton>
              ) : null}
              <IconButton
                tabIndex={-1}
                aria-label="Open"
                title="Open"
                onMouseDown={(event) => {
                  event.preventDefault();
                  document.getElementById(id)?.focus();
                  open();
                }}
                sx={{ marginRight: "-2px", padding: "2px" }}
              >
                <ArrowDropDown />
              </IconButton>
            </Box>
          }
        />
      </FormControl>
    </Box>
  );
}
