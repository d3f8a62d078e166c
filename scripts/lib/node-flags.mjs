// The V8 flags the serving process runs with on the embedded database (issue 26, decision 0023): what
// keeps it under 300 MB after start and through a reminders run over the bench's 100,000 permits, on
// every Node line. `npm start` (scripts/start.mjs) and the benchmarks' server child use this one list.
//
// - --optimize-for-size (every line): V8 keeps its heaps small (a young generation of a few MB and
//   an old generation grown in small steps, collected sooner) instead of trading memory for speed.
//   A reminders run composes a digest e-mail per recipient; V8 otherwise lets that garbage grow the
//   heap by ~100 MB before collecting it, and keeps the pages.
// - --liftoff-only (Node 24 and later): PGlite's WebAssembly stays compiled by the baseline compiler.
//   Node 24's V8 (13.6) recompiles PostgreSQL's hottest functions with its optimising tier a few
//   seconds after start, and that compilation takes ~500 MB while it runs (the peak of 908-957 MB).
//   Node 20's and 22's V8 tier up without such a peak (measured: 22.23 peaks at 254 MB through a
//   run with --optimize-for-size alone), so they keep the optimising tier and its speed.
// On PostgreSQL (DATABASE_URL) there is no WebAssembly and memory is not the constraint: no flags.
// PERMITRACK_NODE_FLAGS replaces the list (empty: none), e.g. to measure without them.

/** The flags for a server on this database, run by this Node version. */
export function serverNodeFlags({ embedded, nodeVersion = process.versions.node, env = process.env }) {
  if (env.PERMITRACK_NODE_FLAGS !== undefined) return env.PERMITRACK_NODE_FLAGS.split(/\s+/).filter(Boolean);
  if (!embedded) return [];
  const major = Number(String(nodeVersion).replace(/^v/, "").split(".")[0]);
  return major >= 24 ? ["--optimize-for-size", "--liftoff-only"] : ["--optimize-for-size"];
}
