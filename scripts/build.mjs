// `npm run build`: everything a server runs, built once (decision 0026): the web app into dist/ (vite)
// and the server bundle into build/server/ (esbuild). A release (scripts/release.mjs) ships both, so
// that a production install needs no build tools: `npm ci --omit=dev && npm start`.
import path from "node:path";
import { buildServer } from "./lib/build-server.mjs";
import { buildWebInto, root } from "./lib/build-web.mjs";

const t0 = performance.now();
buildWebInto(path.join(root, "dist"));
const entry = buildServer();
console.log(
  `Built dist/ and ${path.relative(root, entry)} in ${((performance.now() - t0) / 1000).toFixed(1)} s.`,
);
