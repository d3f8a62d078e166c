import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const API_TARGET = "http://127.0.0.1:3000";
const proxy = {
  "/api": { target: API_TARGET, changeOrigin: false },
  "/healthz": { target: API_TARGET },
  "/readyz": { target: API_TARGET },
};

/*
 * Chunks. Every screen is a lazy route (web/app/router.tsx), so what the sign-in page loads is
 * the entry, the "vendor" group below and the login route's own chunks.
 * - "vendor" takes only node_modules reachable from the entry at start-up ($initial): React,
 *   router, TanStack Query, emotion and the MUI core. Nothing that only a lazy screen imports
 *   (icons, recharts, dialogs, tables) can enter it.
 * - "charts" keeps recharts and its d3/redux helpers in one chunk fetched by chart screens only.
 * - MUI icons need no group: imported by path (@mui/icons-material/Add), each lands in the
 *   automatic chunk of the screens that use it.
 */
const CHART_MODULES =
  /[\\/]node_modules[\\/](recharts|d3-[^\\/]+|victory-vendor|internmap|decimal\.js-light|eventemitter3|es-toolkit|@reduxjs[\\/]toolkit|redux|redux-thunk|react-redux|reselect|immer|use-sync-external-store|tiny-invariant)[\\/]/;

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  // No public/ folder: the favicon and logo are hashed assets referenced from index.html and web/.
  publicDir: false,
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // Assets stay files (not data: URIs) so the CSP's img-src 'self' covers them plainly.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // Libraries the entry needs at start-up (React, router, query, MUI core, emotion):
              // one long-cached chunk, shared by every page.
              name: "vendor",
              test: /[\\/]node_modules[\\/]/,
              tags: ["$initial"],
              priority: 30,
            },
            { name: "charts", test: CHART_MODULES, priority: 20 },
          ],
        },
      },
    },
  },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
});
