import { databaseUnavailable } from "./errors.ts";

/**
 * How long a delivery's sent mark is retried while the database is unreachable. Given up, the rows
 * stay claimed and the e-mail goes out again after the claim's lease (a copy with the same
 * Message-ID), so this stays well inside every lease (reminders, request and packet deliveries).
 */
export const SENT_MARK_RETRY_MS = 2 * 60_000;

/**
 * Runs `write` again (backing off to 5 s) while the database is unreachable, for at most `withinMs`:
 * a delivery's sent mark after the SMTP server took the e-mail, where giving up is the only way a
 * process that stays alive sends it twice. Any other error is thrown at once.
 */
export async function retryThroughOutage<T>(
  write: () => Promise<T>,
  withinMs = SENT_MARK_RETRY_MS,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (!databaseUnavailable(err) || Date.now() >= deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * 2 ** attempt)));
    }
  }
}

/** A failed delivery's error as its row keeps it (last_error): the message, at most 1,000 characters. */
export const deliveryErrorText = (err: unknown) =>
  (err instanceof Error ? err.message : String(err)).slice(0, 1000);
