import type { Readable } from "node:stream";
import type { FileDigest } from "./metered.ts";

/** The two places a file can live: the local folder DATA_DIR/files, or an S3-compatible bucket. */
export type DriverName = "local" | "s3";

/** What a row recorded of its file, to check a read against; null where an old row has none. */
export interface Expected {
  size: number | null;
  sha256: string | null;
}

/** A file whose bytes have been checked: `stream` yields exactly the bytes that were checked. */
export interface OpenedFile extends FileDigest {
  stream: Readable;
}

/** The file is not where its key says (deleted by hand, or on another node's local disk). */
export class StoredFileMissing extends Error {
  constructor(readonly key: string) {
    super(`stored file missing: ${key}`);
  }
}

/** The stored bytes are not the ones recorded at upload: they must not be served. */
export class StoredFileChanged extends Error {
  constructor(
    readonly key: string,
    readonly expected: Expected,
    readonly actual: { size: number; sha256: string | null },
  ) {
    super(`stored file changed: ${key}`);
  }
}

/** One place's implementation, with keys of its own (no `s3:`); storage.ts routes to it by key. */
export interface StorageDriver {
  readonly name: DriverName;
  describe(): string;
  /** Streams `source` to `key`, refusing past maxBytes; a failed write leaves nothing at `key`. */
  write(key: string, source: Readable, maxBytes?: number): Promise<FileDigest>;
  read(key: string): Readable;
  open(key: string, expected: Expected): Promise<OpenedFile>;
  remove(key: string): Promise<void>;
  list(prefix?: string): AsyncIterable<{ key: string; size: number }>;
  close(): Promise<void>;
}

export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}
