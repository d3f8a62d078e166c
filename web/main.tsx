import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import createCache from "@emotion/cache";
import { BrowserRouter } from "react-router";
import { AppProviders } from "./app/providers.tsx";
import { AppRoutes, prepareFirstScreen } from "./app/router.tsx";
import { queryClient } from "./lib/query-client.ts";

const NONCE_PLACEHOLDER = "__CSP_NONCE__";

/**
 * The server writes a per-request nonce into <meta name="csp-nonce">; emotion puts it on the
 * <style> elements it creates so that the strict style-src allows them. Under `vite dev` the
 * placeholder is still there and there is no CSP, so no nonce is used.
 */
function readCspNonce(): string | undefined {
  const value = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  return value && value !== NONCE_PLACEHOLDER ? value : undefined;
}

const emotionCache = createCache({ key: "css", nonce: readCspNonce() });

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

// The first screen's code (and the session, behind the guard) before the first render: no spinner,
// and no waterfall of the shell's code, then /api/me, then the screen's code. (Not a top-level
// await: the bundler would then split the modules the screens share out of the entry, in more files.)
void prepareFirstScreen(window.location.pathname, queryClient).then(() =>
  createRoot(container).render(
    <StrictMode>
      <AppProviders emotionCache={emotionCache} queryClient={queryClient}>
        {/* Without transitions a click shows the next screen (or its spinner) at once, and a
            navigate() wrapped in flushSync has rendered when it returns (see the login page). */}
        <BrowserRouter useTransitions={false}>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>
    </StrictMode>,
  ),
);
