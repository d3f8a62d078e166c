import { useMemo, type ReactNode } from "react";
import { CacheProvider, type EmotionCache } from "@emotion/react";
import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { NotificationsHost } from "../components/notifications-host.tsx";
import { createAppTheme } from "../lib/theme.ts";
import { ThemeModeProvider, useThemeMode } from "../lib/theme-mode.tsx";

/** Everything every page needs: styles (with the CSP nonce), theme, data cache, snackbar. */
export function AppProviders({
  emotionCache,
  queryClient,
  children,
}: {
  emotionCache: EmotionCache;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <CacheProvider value={emotionCache}>
      <ThemeModeProvider>
        <ThemedApp>
          <QueryClientProvider client={queryClient}>
            {children}
            <NotificationsHost />
          </QueryClientProvider>
        </ThemedApp>
      </ThemeModeProvider>
    </CacheProvider>
  );
}

function ThemedApp({ children }: { children: ReactNode }) {
  const { mode } = useThemeMode();
  const theme = useMemo(() => createAppTheme(mode), [mode]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      {children}
    </ThemeProvider>
  );
}
