import type { Db } from "./client.ts";
import { withCompiledRows } from "./compiled-rows.ts";

/** Per database, what builtOnce() built, by key. */
const built = new WeakMap<Db, Map<string, unknown>>();

/**
 * A statement built once per database and key, then run with each request's values: a hot read
 * whose shape depends only on a few things (the scope's kind, whether internal comments count)
 * is built with placeholders (`sql.placeholder`) and `.prepare(name)`d under a key naming those
 * things; drizzle then skips building it again, and PostgreSQL plans it once per connection.
 * `build` gets a statement name made from the key. Its rows are mapped by a function compiled for
 * its fields (withCompiledRows()), not by drizzle's generic loop.
 */
export function builtOnce<T extends object>(db: Db, key: string, build: (name: string) => T): T {
  let statements = built.get(db);
  if (!statements) built.set(db, (statements = new Map()));
  let statement = statements.get(key) as T | undefined;
  if (statement === undefined) {
    statement = withCompiledRows(build(key.replace(/\W/g, "_")));
    statements.set(key, statement);
  }
  return statement;
}
