// Prints the path of a Node 24 binary for the test command (decision 0021: the PGlite half of the API
// tests runs on Node 24, the rest on the machine's Node). It is fetched once from the npm registry,
// as the package node-<platform>-<arch>@24 (the binary the `node` package's own install script would
// fetch, without running that script), into .cache/node24 (ignored by git, kept by `npm ci`), and
// reused while it is there. `--version` prints the version instead.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const dir = path.join(root, ".cache", "node24");
const bin = path.join(dir, "bin", "node");

const versionOf = (file) => {
  try {
    return execFileSync(file, ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return "";
  }
};

if (!versionOf(bin).startsWith("v24.")) {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const scratch = fs.mkdtempSync(path.join(path.dirname(dir), "node24-"));
  try {
    const spec = `node-${process.platform}-${process.arch}@24`;
    console.error(`==> fetching Node 24 (${spec}) from the npm registry into .cache/node24`);
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", spec, "--json", "--silent", "--pack-destination", scratch], {
        cwd: scratch,
        encoding: "utf8",
      }),
    );
    execFileSync("tar", ["xzf", path.join(scratch, packed.filename), "-C", scratch]);
    const unpacked = path.join(scratch, "package");
    if (!versionOf(path.join(unpacked, "bin", "node")).startsWith("v24."))
      throw new Error(`${spec} holds no working Node 24 binary`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(unpacked, dir);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
console.log(process.argv.includes("--version") ? versionOf(bin) : bin);
