// `npm start`: build the web app and bundle the server when missing or older than their sources, then
// run the server bundle with plain Node (no TypeScript loader in the serving process, decision 0015).
// A production install (`npm ci --omit=dev` of a release, decision 0026) has no build tools: it runs
// the dist/ and build/server/ the release shipped.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildServerIfStale } from "./lib/build-server.mjs";
import { buildWebIfStale, root } from "./lib/build-web.mjs";
import { serverNodeFlags } from "./lib/node-flags.mjs";

// The first start builds the web app (tens of seconds): meanwhile a child makes the embedded database's
// template if there is none yet, so that a new data directory is a copy of it (decision 0015). When
// nothing was built it is not waited for.
const template = process.env.DATABASE_URL ? null : prepareDatabaseTemplate();
let built;
try {
  built = buildWebIfStale();
} catch (err) {
  await template?.cancel();
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
const entry = buildServerIfStale();
if (template) await (built ? template.done : template.cancel());
// On the embedded database, V8 flags that keep the serving process small (decision 0025).
const flags = serverNodeFlags({ embedded: !process.env.DATABASE_URL });
const child = spawn(process.execPath, [...flags, entry], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));

function prepareDatabaseTemplate() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-template-"));
  const db = path.join(root, "server", "db");
  const child = path.join(db, "pglite-create.child.mjs");
  const args = [
    child,
    path.join(scratch, "pglite"),
    "--migrations",
    path.join(db, "migrations"),
    "--only-template",
  ];
  const prep = spawn(process.execPath, args, { stdio: "ignore" });
  const done = new Promise((resolve) => prep.on("close", resolve)).finally(() =>
    fs.rmSync(scratch, { recursive: true, force: true }),
  );
  const cancel = () => {
    prep.kill("SIGKILL"); // safe at any point: a template is only ever renamed into place whole
    return done;
  };
  return { done, cancel };
}
