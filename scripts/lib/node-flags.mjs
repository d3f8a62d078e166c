// The V8 flags the serving process runs with on the embedded database (issue 26, decision 0025): what
// keeps it under 300 MB after start, under load and through a reminders run over the bench's 100,000
// permits, on every Node line. `npm start` (scripts/start.mjs) and the benchmarks' server child use
// this one list.
//
// - --optimize-for-size: V8 keeps its heaps small (a young generation of a few MB, an old generation
//   grown in small steps and collected sooner). A reminders run composes a digest e-mail per recipient
//   (35 MB of mail for the bench's 178 digests); without it V8 lets that garbage grow the heap by
//   ~100 MB before collecting, and keeps the pages. Costs GC time in that run (its CPU time 6 -> 12 s),
//   nothing measurable per request.
// - --liftoff-only: PGlite's WebAssembly (PostgreSQL) stays compiled by V8's baseline compiler. The
//   optimising tier recompiles its hot functions as they run: on Node 24 one of them takes ~500 MB
//   while it compiles a few seconds after start (the peak of 908-957 MB); on Node 20 and 22 the
//   optimised code adds ~50-100 MB over the first minutes of load. Costs ~20% of the server's CPU per
//   request on the list and a detail, ~60% on the heaviest statements (the reminders preview).
// On PostgreSQL (DATABASE_URL) there is no WebAssembly and memory is not the constraint: no flags.
// PERMITRACK_NODE_FLAGS replaces the list (empty: none), e.g. to measure without them.

export const EMBEDDED_FLAGS = ["--optimize-for-size", "--liftoff-only"];

/** The flags for a server on this database (the same on every Node line). */
export function serverNodeFlags({ embedded, env = process.env }) {
  if (env.PERMITRACK_NODE_FLAGS !== undefined) return env.PERMITRACK_NODE_FLAGS.split(/\s+/).filter(Boolean);
  return embedded ? [...EMBEDDED_FLAGS] : [];
}
