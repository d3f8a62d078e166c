// `npm start`: build the web app when it is missing or older than its sources, then run the server.
import { spawn } from "node:child_process";
import path from "node:path";
import { buildWebIfStale, root } from "./lib/build-web.mjs";

buildWebIfStale();
const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "server", "main.ts")], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
