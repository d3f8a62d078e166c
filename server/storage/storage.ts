import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Transform, type Readable } from "node:stream";
import { AppError } from "../errors.ts";

/** Where uploaded files live. The local driver writes under DATA_DIR/files; an S3 driver fits the same shape. */
export interface Storage {
  /** Streams `source` to a new server-generated key under `prefix`; refuses (and leaves nothing) past maxBytes. */
  put(prefix: string, source: Readable, maxBytes: number): Promise<{ key: string; size: number }>;
  read(key: string): Readable;
  remove(key: string): Promise<void>;
}

const KEY = /^[a-z0-9-]+(\/[a-z0-9-]+)*$/;

export function createLocalStorage(root: string): Storage {
  const base = path.resolve(root);
  const resolveKey = (key: string) => {
    if (!KEY.test(key)) throw new Error(`invalid storage key: ${key}`);
    return path.join(base, key);
  };
  return {
    async put(prefix, source, maxBytes) {
      const key = `${prefix}/${randomUUID()}`;
      const file = resolveKey(key);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const tmp = `${file}.part`;
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > maxBytes) done(new AppError(413, "PAYLOAD_TOO_LARGE", "The file is too large."));
          else done(null, chunk);
        },
      });
      try {
        await pipeline(source, counter, fs.createWriteStream(tmp, { mode: 0o600 }));
        // multipart streams flag truncation instead of erroring
        if ((source as Readable & { truncated?: boolean }).truncated) {
          throw new AppError(413, "PAYLOAD_TOO_LARGE", "The file is too large.");
        }
        fs.renameSync(tmp, file);
      } catch (err) {
        fs.rmSync(tmp, { force: true });
        source.resume();
        throw err;
      }
      return { key, size };
    },
    read(key) {
      return fs.createReadStream(resolveKey(key));
    },
    async remove(key) {
      fs.rmSync(resolveKey(key), { force: true });
    },
  };
}
