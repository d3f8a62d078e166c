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
