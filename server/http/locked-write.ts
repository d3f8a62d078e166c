import type { Refusal } from "../errors.ts";
import { allow } from "../errors.ts";
import type { Db } from "../db/client.ts";

/**
 * One load per write: a route that changes one record runs it through here, so the record is read
 * once, inside the write's transaction, scoped to the actor and locked, and the policy decides on
 * that locked row (not on a copy read before another request changed it). The write gets the row
 * and returns the new state, which the route presents without reading it again.
 *
 *   return presentX(actor, await lockedWrite(db, {
 *     load: (tx) => findVisibleX(tx, actor, id, { forUpdate: true }), // scoped: 404 outside
 *     allow: (row) => canDoX(actor, row),                             // policy: 403 / 409
 *     write: (tx, row) => doX(tx, actor, row, input),                  // service, audit inside
 *   }));
 */
export interface LockedWrite<Row, Out> {
  /** Reads the record in the transaction, scoped to the actor (404 outside) and locked for update. */
  load: (tx: Db) => Promise<Row>;
  /** The policy over the locked row: true, a refusal (403/409 with its message), or false (403). */
  allow: (row: Row) => boolean | Refusal | null;
  /** The change and its audit, in the same transaction; returns what the route presents. */
  write: (tx: Db, row: Row) => Promise<Out>;
}

export function lockedWrite<Row, Out>(db: Db, w: LockedWrite<Row, Out>): Promise<Out> {
  return db.transaction(async (tx) => {
    const row = await w.load(tx);
    allow(w.allow(row));
    return w.write(tx, row);
  });
}
