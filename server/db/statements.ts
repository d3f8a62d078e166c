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
