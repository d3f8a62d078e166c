import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { readStorage, STORAGE_KEYS, writeStorage } from "./storage.ts";
import type { ThemeMode } from "./theme.ts";

interface ThemeModeValue {
  mode: ThemeMode;
  setMode: (mode: ThemeMode) => void;
  toggleMode: () => void;
}

const ThemeModeContext = createContext<ThemeModeValue | null>(null);

const isThemeMode = (value: unknown): value is ThemeMode => value === "light" || value === "dark";

/** The stored choice (localStorage "theme"), else the operating system's preference. */
export function initialThemeMode(): ThemeMode {
  const stored = readStorage(STORAGE_KEYS.theme);
  if (isThemeMode(stored)) return stored;
  return typeof window !== "undefined" && window.matchMedia?.("(prefers-color-scheme: dark)").matches
    ? "dark"
    : "light";
}

export function ThemeModeProvider({ children }: { children: ReactNode }) {
  const [mode, setModeState] = useState<ThemeMode>(initialThemeMode);

  const setMode = useCallback((next: ThemeMode) => {
    setModeState(next);
    writeStorage(STORAGE_KEYS.theme, next);
  }, []);

  // Keep several open tabs in step.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.theme && isThemeMode(event.newValue)) setModeState(event.newValue);
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  const value = useMemo<ThemeModeValue>(
    () => ({ mode, setMode, toggleMode: () => setMode(mode === "dark" ? "light" : "dark") }),
    [mode, setMode],
  );
  return <ThemeModeContext value={value}>{children}</ThemeModeContext>;
}

export function useThemeMode(): ThemeModeValue {
  const value = useContext(ThemeModeContext);
  if (!value) throw new Error("useThemeMode must be used inside <ThemeModeProvider>");
  return value;
}
