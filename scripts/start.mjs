// `npm start`: build the web app and bundle the server when missing or older than their sources, then
// run the server bundle with plain Node (no TypeScript loader in the serving process, decision 0015).
import { spawn } from "node:child_process";
import { buildServerIfStale } from "./lib/build-server.mjs";
import { buildWebIfStale, root } from "./lib/build-web.mjs";

buildWebIfStale();
const entry = buildServerIfStale();
const child = spawn(process.execPath, [entry], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
