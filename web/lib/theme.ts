import { createTheme, type Theme } from "@mui/material/styles";
import { BRAND_PRIMARY, BRAND_SECONDARY } from "../../shared/domain/constants.ts";

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

export function createAppTheme(mode: ThemeMode): Theme {
  const isDark = mode === "dark";
  return createTheme({
    palette: {
      mode,
      primary: { main: BRAND_PRIMARY },
      secondary: { main: BRAND_SECONDARY },
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
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      // Brand green on white is under 3:1 for small text; the darker brand colour reads better.
      MuiLink: { defaultProps: { color: isDark ? "primary" : "secondary", underline: "hover" } },
      MuiAppBar: { defaultProps: { elevation: 0 } },
    },
  });
}
