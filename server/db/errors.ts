/**
 * The name of the unique constraint (or unique index) an insert or update violated, else null.
 * Drivers differ: pg and PGlite put the SQLSTATE on the error, drizzle wraps it as `cause`.
 */
export function uniqueViolation(err: unknown): string | null {
  for (
    let e = err as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 3;
    depth++
  ) {
    if (e.code === "23505") return typeof e.constraint === "string" ? e.constraint : "";
    e = e.cause as typeof e;
  }
  return null;
}

// SQLSTATE classes and driver errors that mean "the database is not reachable right now", as opposed to a
// bad statement: connection exceptions (08), operator intervention (57: shutdown, cannot connect now),
// insufficient resources (53), and the socket errors of a server that went away.
const UNAVAILABLE_STATES = /^(08|53|57P0[1-3])/;
const UNAVAILABLE_MESSAGES =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect|terminating connection/i;

/** True when an error says the database cannot be reached (down, restarting, refusing connections). */
export function databaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined,
      depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (typeof e.code === "string" && (UNAVAILABLE_STATES.test(e.code) || UNAVAILABLE_MESSAGES.test(e.code)))
      return true;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message)) return true;
    if (Array.isArray(e.errors) && e.errors.some((inner) => databaseUnavailable(inner))) return true;
    e = e.cause as typeof e;
  }
  return false;
}
