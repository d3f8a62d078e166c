import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PageText } from "../../../../shared/domain/document-reading.ts";

/**
 * The serving process's side of the reader's child (decision 0030): one child, started on the first
 * document, reading one document at a time (the others wait their turn), kept warm between documents
 * (its OCR worker too), ended after IDLE_MS without work and replaced after DOCUMENTS_PER_CHILD. The
 * child is plain JavaScript beside this module (and beside the server's bundle), run without the
 * TypeScript loader the tests run under.
 */
const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), "reader.child.mjs");
/** A child without work for this long is ended: with its OCR worker it holds ~300 MB. */
export const IDLE_MS = 60_000;
/** A child is replaced after this many documents: what its heaps grew to (WebAssembly never shrinks) goes. */
export const DOCUMENTS_PER_CHILD = 100;
/** The child's JavaScript heap (PDF.js's objects); the WebAssembly and canvas memory are outside it. */
const CHILD_HEAP_MB = 512;

/** What the child answered for one document: the pages read and why it stopped, if a bound stopped it. */
export interface ChildReading {
  pageCount: number | null;
  pages: PageText[];
  stopped: null | "pages" | "time";
}

/** The child said the document cannot be read (its message is in words). */
export class ChildUnreadable extends Error {}

/** The reader's process ended while it read (killed, out of memory, crashed): an error, not a reading. */
export class ReaderStoppedError extends Error {
  override name = "ReaderStoppedError";
}

type ChildMessage =
  | { type: "opened"; id: number; pageCount: number }
  | { type: "page"; id: number; page: PageText }
  | { type: "done"; id: number; stopped: null | "pages" | "time" }
  | { type: "error"; id: number; unreadable: boolean; message: string };

interface Current {
  id: number;
  proc: ChildProcess;
  reading: ChildReading;
  settle: (error: Error | null) => void;
}

let child: ChildProcess | null = null;
let current: Current | null = null;
let stderrTail = "";
let idleTimer: NodeJS.Timeout | null = null;
let nextId = 1;
let documentsRead = 0;
let turn: Promise<unknown> = Promise.resolve();

/** The child's pid while one runs (tests end it on purpose; the benchmark reads its memory). */
export function readerProcessId(): number | null {
  return child?.pid ?? null;
}

function startChild(): ChildProcess {
  stderrTail = "";
  documentsRead = 0;
  const started = fork(CHILD, [], {
    // Not the parent's execArgv (tsx's loader under the tests): the child is plain JavaScript.
    execArgv: [`--max-old-space-size=${CHILD_HEAP_MB}`],
    serialization: "advanced",
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  started.stderr?.on("data", (d: Buffer) => {
    stderrTail = (stderrTail + d.toString()).slice(-2000);
  });
  // The pipe never keeps the serving process alive by itself: holdOpen() decides that.
  (started.stderr as (NodeJS.ReadableStream & { unref?: () => void }) | null)?.unref?.();
  started.on("message", (message: ChildMessage) => onMessage(message));
  started.on("exit", (code, signal) => {
    if (child === started) child = null;
    const how = signal ? `was ended by ${signal}` : `exited with code ${code}`;
    const detail = stderrTail.trim() ? `: ${stderrTail.trim().split("\n").slice(-3).join(" ")}` : "";
    if (current?.proc === started)
      current.settle(new ReaderStoppedError(`The document reader's process ${how} while reading${detail}.`));
  });
  started.on("error", (error) => {
    if (current?.proc === started) current.settle(error);
  });
  return started;
}

function onMessage(message: ChildMessage) {
  if (!current || message.id !== current.id) return;
  const { reading } = current;
  if (message.type === "opened") reading.pageCount = message.pageCount;
  else if (message.type === "page") reading.pages.push(message.page);
  else if (message.type === "done") {
    reading.stopped = message.stopped;
    current.settle(null);
  } else
    current.settle(message.unreadable ? new ChildUnreadable(message.message) : new Error(message.message));
}

/** Keeps the serving process from exiting only while a document is being read. */
function holdOpen(proc: ChildProcess, hold: boolean) {
  const channel = (proc as ChildProcess & { channel?: { ref(): void; unref(): void } }).channel;
  if (hold) {
    proc.ref();
    channel?.ref();
  } else {
    proc.unref();
    channel?.unref();
  }
}

/** Ends the child now (idle, a bound passed mid-page, the tests). The next document starts a new one. */
export function stopReaderProcess(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const running = child;
  child = null;
  running?.kill("SIGKILL");
}

function armIdleTimer() {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(stopReaderProcess, IDLE_MS);
  idleTimer.unref();
}

/**
 * Starts the child and its OCR worker ahead of a document (an upload is arriving), unless it is
 * reading one now. It stays for IDLE_MS unless a document comes.
 */
export function warmReaderProcess(): void {
  if (current) return;
  const proc = liveChild();
  holdOpen(proc, false);
  try {
    proc.send({ type: "warm" });
  } catch {
    // Gone already: the next document starts another.
  }
  armIdleTimer();
}

/** The running child, or a new one when there is none or it is on its way out. */
function liveChild(): ChildProcess {
  if (child && (!child.connected || child.exitCode !== null || child.signalCode !== null)) child = null;
  return child ?? (child = startChild());
}

/**
 * Reads one document in the child within timeoutMs: past it the child is ended and the pages read so
 * far are the answer (stopped: "time"). Rejects with ChildUnreadable (the child's words) or
 * ReaderStoppedError (the child died).
 */
export function readInChild(
  bytes: Uint8Array,
  contentType: string,
  maxPages: number,
  timeoutMs: number,
): Promise<ChildReading> {
  const mine = turn.then(() => readNow(bytes, contentType, maxPages, timeoutMs));
  turn = mine.catch(() => undefined);
  return mine;
}

function readNow(bytes: Uint8Array, contentType: string, maxPages: number, timeoutMs: number) {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const proc = liveChild();
  holdOpen(proc, true);
  const id = nextId++;
  const reading: ChildReading = { pageCount: null, pages: [], stopped: null };
  return new Promise<ChildReading>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A page can take seconds (OCR): the bound is the bound, so the child goes and a new one comes.
      reading.stopped = "time";
      settle(null);
      if (child === proc) stopReaderProcess();
    }, timeoutMs);
    const settle = (error: Error | null) => {
      if (current?.id !== id) return;
      current = null;
      clearTimeout(timer);
      if (child === proc) {
        holdOpen(proc, false);
        if (++documentsRead >= DOCUMENTS_PER_CHILD) stopReaderProcess();
        else armIdleTimer();
      }
      if (error) reject(error);
      else resolve(reading);
    };
    current = { id, proc, reading, settle };
    try {
      proc.send({ type: "read", id, bytes, contentType, maxPages, deadline: Date.now() + timeoutMs });
    } catch (error) {
      settle(new ReaderStoppedError(`The document reader's process could not be reached: ${String(error)}.`));
    }
  });
}
