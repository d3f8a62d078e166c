import { createHash } from "node:crypto";
import fsp from "node:fs/promises";
import { Transform, type Readable, type Writable } from "node:stream";
import { AppError } from "../errors.ts";

/** What a stored file's row records of its bytes, and what every read is checked against. */
export interface FileDigest {
  size: number;
  /** SHA-256 of the bytes, lower-case hex. */
  sha256: string;
}

export const tooLarge = () => new AppError(413, "PAYLOAD_TOO_LARGE", "The file is too large.");

/**
 * A pass-through that counts and hashes the bytes going to storage. Past `maxBytes`, or when the
 * source says it was cut off at the multipart limit (`truncated`, which busboy sets instead of
 * erroring), it fails with `overLimit()` before the end, so that no driver ever finishes the write.
 * `failure` keeps that error: a driver whose own clean-up fails after it still answers with it.
 */
export function metered(
  source: Readable,
  maxBytes = Number.POSITIVE_INFINITY,
  overLimit: () => Error = tooLarge,
) {
  const hash = createHash("sha256");
  let size = 0;
  let digest: FileDigest | null = null;
  const state = { failure: null as Error | null };
  const fail = (done: (err: Error) => void) => {
    state.failure = overLimit();
    done(state.failure);
  };
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return fail(done);
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      if ((source as Readable & { truncated?: boolean }).truncated) return fail(done);
      digest = { size, sha256: hash.digest("hex") };
      done();
    },
  });
  return {
    stream,
    get failure() {
      return state.failure;
    },
    /** The size and SHA-256 of everything that went through; only once the stream has ended. */
    digest(): FileDigest {
      if (!digest) throw new Error("metered(): read before the stream ended");
      return digest;
    },
  };
}

/** The size and SHA-256 of a stream's bytes, read to its end. */
export async function digestOf(stream: Readable): Promise<FileDigest> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    hash.update(chunk);
  }
  return { size, sha256: hash.digest("hex") };
}

/**
 * A write stream to a new file that exists once this resolves: a pipeline that fails before
 * `fs.createWriteStream` would have opened its file could otherwise create it after the caller
 * removed it, leaving a stray partial file.
 */
export async function newFileStream(file: string): Promise<Writable> {
  const handle = await fsp.open(file, "w", 0o600);
  return handle.createWriteStream();
}
