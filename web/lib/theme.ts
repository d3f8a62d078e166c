import { createTheme, type Theme } from "@mui/material/styles";
import { BRAND_PRIMARY, BRAND_PRIMARY_DARK, BRAND_SECONDARY } from "../../shared/domain/constants.ts";

export type ThemeMode = "light" | "dark";

/** The operating system's fonts only: the CSP allows no third-party font hosts. */
export const SYSTEM_FONT_STACK = [
  "system-ui",
  "-apple-system",
  '"Segoe UI"',
  "Roboto",
  '"Helvetica Neue"',
  "Arial",
  '"Noto Sans"',
  '"Liberation Sans"',
  "sans-serif",
  '"Apple Color Emoji"',
  '"Segoe UI Emoji"',
].join(", ");

/** The smallest tap target on a phone (issue 14; WCAG 2.5.5). */
export const TAP_TARGET = 44;

export function createAppTheme(mode: ThemeMode): Theme {
  const isDark = mode === "dark";
  const base = createTheme({
    palette: {
      mode,
      // Text and filled buttons need 4.5:1 (WCAG AA). On light backgrounds that is the darker brand
      // green; on the dark theme the brand green itself, under dark text (contrastThreshold below).
      primary: isDark
        ? { main: BRAND_PRIMARY }
        : { main: BRAND_PRIMARY_DARK, light: BRAND_PRIMARY, dark: BRAND_SECONDARY },
      secondary: { main: BRAND_SECONDARY },
      // MUI's light amber, orange and blue read at 2-3:1 as text; these read at 4.5:1 or more.
      ...(isDark
        ? {}
        : {
            warning: { main: "#b45309", light: "#f59e0b", dark: "#8a4204" },
            info: { main: "#0277bd" },
            // Red text on the list's pink "expired" rows needs the darker red.
            error: { main: "#d32f2f", dark: "#b71c1c" },
          }),
      // Buttons and chips pick the text colour that reaches 4.5:1 on their fill.
      contrastThreshold: 4.5,
      background: isDark
        ? { default: "#0f1514", paper: "#161d1c" }
        : { default: "#f5f7f6", paper: "#ffffff" },
    },
    typography: {
      fontFamily: SYSTEM_FONT_STACK,
      h1: { fontSize: "2rem", fontWeight: 600 },
      h2: { fontSize: "1.6rem", fontWeight: 600 },
      h3: { fontSize: "1.35rem", fontWeight: 600 },
      button: { textTransform: "none", fontWeight: 600 },
    },
    shape: { borderRadius: 8 },
  });
  const focusColor = isDark ? base.palette.primary.light : base.palette.primary.main;
  const focusRing = { outline: `2px solid ${focusColor}`, outlineOffset: 2 };
  const phone = base.breakpoints.down("md");
  return createTheme(base, {
    components: {
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: { root: { [phone]: { minHeight: TAP_TARGET } } },
      },
      // Every control built on ButtonBase (buttons, sort headers, chips, menu items, switches,
      // tiles) shows a ring when reached by keyboard, not only a faint ripple.
      MuiButtonBase: { styleOverrides: { root: { "&.Mui-focusVisible": focusRing } } },
      MuiIconButton: {
        styleOverrides: { root: { [phone]: { minWidth: TAP_TARGET, minHeight: TAP_TARGET } } },
      },
      MuiChip: {
        styleOverrides: { clickable: { [phone]: { height: TAP_TARGET, borderRadius: TAP_TARGET / 2 } } },
      },
      // Checkboxes, radios and switches: a 44 px round target on a phone.
      MuiCheckbox: { styleOverrides: { root: { [phone]: { padding: 10 } } } },
      MuiRadio: { styleOverrides: { root: { [phone]: { padding: 10 } } } },
      // A full-size switch's round target is 38 px; 44 on a phone.
      MuiSwitch: {
        styleOverrides: {
          root: { [phone]: { "&:not(.MuiSwitch-sizeSmall)": { height: 44, width: 64, padding: 15 } } },
          switchBase: { [phone]: { ".MuiSwitch-root:not(.MuiSwitch-sizeSmall) > &": { padding: 12 } } },
        },
      },
      MuiFormControlLabel: { styleOverrides: { root: { [phone]: { minHeight: TAP_TARGET } } } },
      MuiOutlinedInput: {
        styleOverrides: {
          // Small fields (and selects) are 40 px tall; 44 on a phone.
          root: {
            [phone]: {
              "&.MuiInputBase-sizeSmall .MuiInputBase-input:not(.MuiAutocomplete-input)": {
                paddingTop: 10.5,
                paddingBottom: 10.5,
              },
            },
          },
        },
      },
      // A hint under a disabled field still has to be read: the secondary text colour (4.5:1), not grey.
      MuiFormHelperText: {
        styleOverrides: { root: { "&.Mui-disabled": { color: base.palette.text.secondary } } },
      },
      MuiAutocomplete: {
        styleOverrides: { inputRoot: { [phone]: { minHeight: TAP_TARGET } } },
      },
      MuiPaginationItem: {
        styleOverrides: { root: { [phone]: { minWidth: TAP_TARGET, height: TAP_TARGET } } },
      },
      // A table's pages: the 'Per page' select is 29 px tall by default; 44 on a phone.
      MuiTablePagination: {
        styleOverrides: {
          input: { [phone]: { minHeight: TAP_TARGET } },
          select: { [phone]: { minHeight: TAP_TARGET, display: "flex", alignItems: "center" } },
        },
      },
      MuiMenuItem: { styleOverrides: { root: { [phone]: { minHeight: TAP_TARGET } } } },
      MuiTab: { styleOverrides: { root: { [phone]: { minHeight: TAP_TARGET } } } },
      // The darker green reads better as small text; on the dark theme the brand green does.
      MuiLink: {
        defaultProps: { color: isDark ? "primary" : "secondary", underline: "hover" },
        styleOverrides: { root: { "&:focus-visible": focusRing } },
      },
      MuiAppBar: { defaultProps: { elevation: 0 } },
      // Initials in an avatar are decoration beside a name or inside a labelled button.
      MuiAvatar: { defaultProps: { "aria-hidden": true } },
      // Sort headers say which way they sort with the arrow and aria-sort; keep the arrow's contrast.
      MuiTableSortLabel: { styleOverrides: { root: { borderRadius: 4 } } },
    },
  });
}
