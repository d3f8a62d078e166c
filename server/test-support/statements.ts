import { expect } from "vitest";
import type { Database } from "../db/client.ts";

/**
 * The statements `fn` sends to the database (through drizzle, transaction control included), in
 * order. Nothing else may run against `database` meanwhile: a test file's requests run one at a time.
 */
export async function statementsOf<T>(
  database: Database,
  fn: () => Promise<T>,
): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const stop = database.observeStatements((sql) => statements.push(sql));
  try {
    const result = await fn();
    return { result, statements };
  } finally {
    stop();
  }
}

/**
 * Runs `fn` (one request) and fails when it sends more than `budget` statements, listing them, so
 * an N+1 or a lookup one at a time shows in the failure. Returns `fn`'s result.
 */
export async function withinStatementBudget<T>(
  database: Database,
  budget: number,
  fn: () => Promise<T>,
): Promise<T> {
  const { result, statements } = await statementsOf(database, fn);
  expect(
    statements.length,
    `${statements.length} statements (budget ${budget}):\n${statements.map((s, i) => `  ${i + 1}. ${s.slice(0, 300)}`).join("\n")}`,
  ).toBeLessThanOrEqual(budget);
  return result;
}
