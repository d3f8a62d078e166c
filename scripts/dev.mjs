// `npm run dev`: the API with reload (tsx watch) on :3000 and Vite's dev server on :5173 proxying to it.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const run = (args) => spawn(process.execPath, args, { cwd: root, stdio: "inherit", env: process.env });
const children = [
  run([path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "watch", "server/main.ts"]),
  run([path.join(root, "node_modules", "vite", "bin", "vite.js")]),
];
const stop = () => children.forEach((c) => c.kill("SIGTERM"));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
