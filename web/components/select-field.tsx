import { useId, useImperativeHandle, useRef, useState, type KeyboardEvent, type Ref } from "react";
import ArrowDropDown from "@mui/icons-material/ArrowDropDown";
import FormControl from "@mui/material/FormControl";
import InputLabel from "@mui/material/InputLabel";
import type { InputBaseComponentProps } from "@mui/material/InputBase";
import OutlinedInput from "@mui/material/OutlinedInput";
import { styled, type SxProps, type Theme } from "@mui/material/styles";
import { onDemand, useIsLoaded } from "../lib/on-demand.ts";
import type { SelectFieldMenuProps } from "./select-field-menu.tsx";

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps {
  /** Visible label; also the combobox's accessible name. */
  label: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  /** Shows the option whose value is "" (e.g. 'All Types') and keeps the label above the field. */
  displayEmpty?: boolean;
  size?: "small" | "medium";
  sx?: SxProps<Theme>;
}

// MUI's Select brings Menu, Popover, Modal and the other TextField variants: fetched on intent.
const menu = onDemand<SelectFieldMenuProps>(() => import("./select-field-menu.tsx"));

/** Starts fetching the select fields' code, e.g. when the pointer enters a toolbar of them. */
export function preloadSelectFields(): void {
  void menu.load();
}

interface StandInProps {
  ref?: Ref<{ focus: () => void; value: string }>;
  className?: string;
  value?: string;
  labelId: string;
  shown: string;
  onOpen: () => void;
  onIntent: () => void;
  onFocusChange: (hasFocus: boolean) => void;
  onFocus?: () => void;
  onBlur?: () => void;
}

const OPEN_KEYS = new Set([" ", "ArrowUp", "ArrowDown", "Enter"]);

/**
 * A dropdown field: MUI's outlined `TextField select`, whose code comes when the pointer first
 * comes near a select field, it takes the focus or a finger touches it. Until then a stand-in
 * that looks and reads the same (a combobox named by its label, showing the chosen option) holds
 * its place; clicked or opened from the keyboard before the code is here, the field opens as soon
 * as it is.
 */
export function SelectField(props: SelectFieldProps) {
  const isLoaded = useIsLoaded(menu);
  const [wantsOpen, setWantsOpen] = useState(false);
  const [hasFocus, setHasFocus] = useState(false);
  const id = useId();
  if (isLoaded)
    // Opened and given the focus only if the stand-in still has it when the code arrives.
    return <menu.Component {...props} openOnMount={wantsOpen && hasFocus} focusOnMount={hasFocus} />;

  const { label, value, options, displayEmpty = false, size, sx } = props;
  const shown = options.find((o) => o.value === value && (value !== "" || displayEmpty))?.label ?? "";
  const open = () => {
    setWantsOpen(true);
    void menu.load();
  };
  return (
    <FormControl variant="outlined" size={size} sx={sx}>
      <InputLabel id={`${id}-label`} shrink={displayEmpty || undefined}>
        {label}
      </InputLabel>
      <OutlinedInput
        label={label}
        notched={displayEmpty || undefined}
        value={value}
        inputComponent={StandIn}
        inputProps={{
          labelId: `${id}-label`,
          shown,
          onOpen: open,
          onIntent: () => void menu.load(),
          onFocusChange: (focused: boolean) => {
            setHasFocus(focused);
            if (!focused) setWantsOpen(false); // left before the code came: nothing opens later
          },
        }}
      />
    </FormControl>
  );
}

/**
 * In the OutlinedInput, what MUI's SelectInput renders closed: the combobox showing the chosen
 * option, with the input's styles (the className InputBase passes) and the select's own, and the
 * arrow. `value` is exposed as SelectInput exposes it, for InputBase's "filled" state (the label).
 */
function StandIn(props: InputBaseComponentProps) {
  const { ref, className, value, labelId, shown, onOpen, onIntent, onFocusChange, onFocus, onBlur } =
    props as StandInProps;
  const display = useRef<HTMLDivElement>(null);
  useImperativeHandle(ref, () => ({ focus: () => display.current?.focus(), value: value ?? "" }), [value]);
  return (
    <>
      <Display
        ref={display}
        className={className}
        tabIndex={0}
        role="combobox"
        aria-expanded="false"
        aria-haspopup="listbox"
        aria-labelledby={labelId}
        onMouseDown={(event) => {
          if (event.button !== 0) return;
          event.preventDefault();
          display.current?.focus();
          onOpen();
        }}
        onKeyDown={(event: KeyboardEvent) => {
          if (!OPEN_KEYS.has(event.key)) return;
          event.preventDefault();
          onOpen();
        }}
        onPointerEnter={onIntent}
        onTouchStart={onIntent}
        onFocus={() => {
          onIntent();
          onFocusChange(true);
          onFocus?.();
        }}
        onBlur={() => {
          onFocusChange(false);
          onBlur?.();
        }}
      >
        {shown || (
          // What SelectInput shows for no value: keeps the line's height.
          <span className="notranslate" aria-hidden>
            {"\u200b"}
          </span>
        )}
      </Display>
      <ArrowDropDown
        sx={{
          position: "absolute",
          right: 7,
          top: "calc(50% - .5em)",
          pointerEvents: "none",
          color: "action.active",
        }}
      />
    </>
  );
}

/** The select's own styles over the input's (MUI's Select and NativeSelect, outlined variant). */
const Display = styled("div")(({ theme }) => ({
  userSelect: "none",
  cursor: "pointer",
  borderRadius: theme.shape.borderRadius,
  height: "auto",
  minHeight: "1.4375em",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
  overflow: "hidden",
  "&&&": { paddingRight: 32 },
}));
