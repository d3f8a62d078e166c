import pino from "pino";

/** A buffered line is written at the latest this long after it was logged. */
export const LOG_FLUSH_MS = 1000;
/** Lines are written together once this many bytes are waiting. */
const LOG_BUFFER_BYTES = 8192;

/**
 * Where the server's JSON log lines go in production: a file descriptor (stdout by default),
 * written asynchronously in batches of about 8 KB instead of one write system call per line.
 * One line per request made that call a tenth of a small request's time (docs/PERFORMANCE.md).
 * Nothing is lost: sonic-boom's periodic flush writes what waits every `flushMs`, and pino writes
 * the rest synchronously when the process exits (process.exit, a crash, the end of the event
 * loop). Only SIGKILL can lose the last second of lines.
 */
export function bufferedLogStream(fd = 1, flushMs = LOG_FLUSH_MS) {
  return pino.destination({ dest: fd, sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: flushMs });
}
