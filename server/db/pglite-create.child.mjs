// Makes a new embedded database in a process of its own (decision 0015): PGlite's initdb grows its
// WebAssembly heap to ~900 MB and never gives it back, so it must not run in the serving process.
// Plain JavaScript, so that it starts in a fraction of a second without a TypeScript loader.
//
//   node pglite-create.child.mjs <new directory> [--migrations <folder>] [--templates <folder> | --no-templates]
//                                [--only-template]
//
// Creates the database in <new directory> (which must not exist yet), migrated, closed cleanly and
// with every file flushed to disk. The caller (pglite-create.ts) made up the directory's name next to
// the real one and renames it into place only when this exits 0.
//
// initdb costs ~4 s of CPU, and its result depends only on PGlite's version: the first creation keeps
// a copy of its migrated database as a template (named after PGlite's version and the migrations, in
// node_modules/.cache/permitrack unless --templates says where), and later creations copy that
// instead of running initdb and the migrations again. With --only-template it only makes sure the
// template exists (`npm start` does that while it builds the web app) and leaves no directory.
import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    migrations: { type: "string" },
    templates: { type: "string" },
    "no-templates": { type: "boolean" },
    "only-template": { type: "boolean" },
  },
});
const dir = positionals[0];
if (!dir) {
  console.error(
    "usage: pglite-create.child.mjs <new directory> [--migrations <folder>] [--templates <folder>]",
  );
  process.exit(2);
}

const pgliteDir = path.dirname(path.dirname(fileURLToPath(import.meta.resolve("@electric-sql/pglite"))));
const templates = values["no-templates"]
  ? null
  : (values.templates ?? path.join(pgliteDir, "..", "..", ".cache", "permitrack"));
const template = templates ? path.join(templates, templateName(values.migrations)) : null;
if (values["only-template"] && (!template || fs.existsSync(path.join(template, "PG_VERSION"))))
  process.exit(0);

if (!(template && copyTemplate(template, dir))) {
  fs.mkdirSync(dir); // fails if it exists: never initialise over something
  const pglite = await PGlite.create(dir);
  if (values.migrations) await migrate(drizzle(pglite), { migrationsFolder: values.migrations });
  await pglite.close();
  if (template) await keepTemplate(dir, template);
}
if (values["only-template"]) {
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
// PGlite runs PostgreSQL with fsync off; the directory is renamed into place and trusted next, so
// its files must be on disk first.
await syncTree(dir);

function copyTemplate(source, target) {
  if (!fs.existsSync(path.join(source, "PG_VERSION"))) return false;
  try {
    fs.cpSync(source, target, { recursive: true, errorOnExist: true, force: false });
    return true;
  } catch {
    fs.rmSync(target, { recursive: true, force: true }); // removed meanwhile: make it from scratch
    return false;
  }
}

/** PGlite's version and a digest of the migrations: a template is only ever the same database. */
function templateName(migrationsFolder) {
  const { version } = JSON.parse(fs.readFileSync(path.join(pgliteDir, "package.json"), "utf8"));
  const hash = createHash("sha256");
  if (migrationsFolder) {
    for (const file of listFiles(migrationsFolder)) {
      hash.update(path.relative(migrationsFolder, file));
      hash.update(fs.readFileSync(file));
    }
  }
  return `pglite-${version}-${hash.digest("hex").slice(0, 16)}`;
}

function listFiles(p) {
  if (!fs.statSync(p).isDirectory()) return [p];
  return fs
    .readdirSync(p)
    .sort()
    .flatMap((entry) => listFiles(path.join(p, entry)));
}

/** Best effort (the cache may be read-only): copied aside, flushed, renamed into place; older ones removed. */
async function keepTemplate(source, target) {
  const cache = path.dirname(target);
  const temp = `${target}.tmp-${process.pid}`;
  try {
    fs.mkdirSync(cache, { recursive: true });
    fs.cpSync(source, temp, { recursive: true });
    await syncTree(temp);
    fs.renameSync(temp, target);
    // Templates of other versions or migrations, and copies left by creations that died.
    for (const entry of fs.readdirSync(cache)) {
      const pid = /\.tmp-(\d+)$/.exec(entry)?.[1];
      const stale = pid
        ? !isAlive(Number(pid))
        : entry.startsWith("pglite-") && entry !== path.basename(target);
      if (stale) fs.rmSync(path.join(cache, entry), { recursive: true, force: true });
    }
  } catch {
    fs.rmSync(temp, { recursive: true, force: true }); // another creation got there first, or no cache
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

/** fsync of every file and folder under p, several at once (the journal commits them together). */
async function syncTree(p) {
  const paths = [];
  const walk = (q) => {
    paths.push(q);
    if (fs.statSync(q).isDirectory()) for (const entry of fs.readdirSync(q)) walk(path.join(q, entry));
  };
  walk(p);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const handle = await fsp.open(paths[next++], "r");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}
