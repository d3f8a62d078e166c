import { createHash } from "node:crypto";
import type { Logger } from "drizzle-orm/logger";

/** Called with every statement the app sends through drizzle (SQL text and its parameters). */
export type StatementListener = (sql: string, params: readonly unknown[]) => void;

/**
 * drizzle's query logger, turned into a list of listeners: the statement-budget tests count the
 * statements of one request with it, and the benchmark records them to replay them through `pg`.
 * Every statement the app runs goes through drizzle (better-auth's adapter too), transaction
 * control included (`begin`, `commit`). With no listener it costs one empty loop per statement.
 */
export class StatementObservers implements Logger {
  private readonly listeners = new Set<StatementListener>();

  logQuery(query: string, params: unknown[]): void {
    for (const listener of this.listeners) listener(query, params);
  }

  /** Adds a listener; the function returned removes it. */
  observe(listener: StatementListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}

/** How many statements one connection keeps prepared at most; past it, new texts go unnamed. */
export const NAMED_STATEMENTS_PER_CONNECTION = 300;
const NAMEABLE = /^\s*(select|with)\b/i;

/** Statement names by text, shared by the connections: a text is hashed once, not at every run. */
const namesByText = new Map<string, string>();
const NAMES_REMEMBERED = 2000;

function statementName(text: string): string {
  let name = namesByText.get(text);
  if (!name) {
    // Texts that vary with their input must not grow the map without end.
    if (namesByText.size >= NAMES_REMEMBERED) namesByText.clear();
    name = `s_${createHash("sha1").update(text).digest("base64url")}`;
    namesByText.set(text, name);
  }
  return name;
}

interface QueryConfigLike {
  text?: string;
  name?: string;
  values?: unknown[];
}

/**
 * Makes a pg connection keep its read statements prepared: each SELECT gets a name from a hash of
 * its text, so PostgreSQL parses and plans it once per connection, and after five runs may reuse a
 * generic plan, instead of planning it at every request (planning the list's query costs more than
 * running it). The text decides the name, so one name always means one text. A connection keeps at
 * most NAMED_STATEMENTS_PER_CONNECTION of them (texts that vary with their input, such as long IN
 * lists, cannot fill the server's memory). Writes stay unnamed: each is planned afresh.
 */
export function nameReadStatements(client: { query: (...args: never[]) => unknown }): void {
  const names = new Set<string>();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: (...args: unknown[]) => unknown }).query = (config: unknown, ...rest: unknown[]) => {
    // drizzle calls query({ text, rowMode, types }, params): the values come apart from the config.
    if (config && typeof config === "object") {
      const c = config as QueryConfigLike;
      if (!c.name && c.text && NAMEABLE.test(c.text)) {
        const name = statementName(c.text);
        if (names.has(name) || names.size < NAMED_STATEMENTS_PER_CONNECTION) {
          names.add(name);
          return query({ ...c, name }, ...rest);
        }
      }
    }
    return query(config, ...rest);
  };
}
