import IconButton from "@mui/material/IconButton";
import DarkMode from "@mui/icons-material/DarkMode";
import LightMode from "@mui/icons-material/LightMode";
import { useThemeMode } from "../lib/theme-mode.tsx";

/** Switches light/dark; the choice is kept in localStorage "theme". */
export function ThemeToggle() {
  const { mode, toggleMode } = useThemeMode();
  return (
    <IconButton
      aria-label="Toggle light/dark theme"
      aria-pressed={mode === "dark"}
      title={mode === "dark" ? "Switch to light theme" : "Switch to dark theme"}
      onClick={toggleMode}
      color="inherit"
    >
      {mode === "dark" ? <LightMode /> : <DarkMode />}
    </IconButton>
  );
}
