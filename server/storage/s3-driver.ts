import { randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable, pipeline as pipeCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type GetObjectCommandOutput,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { metered, newFileStream } from "./metered.ts";
import { StoredFileChanged, StoredFileMissing, type S3Settings, type StorageDriver } from "./driver.ts";

/** Parts of a multipart upload: S3's smallest, one at a time (at most ~10 MB held per upload). */
const PART_SIZE = 5 * 1024 * 1024;

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
};

/** Removes download copies older than an hour from `tmpDir`; best effort, in the background. */
async function sweepStaleCopies(tmpDir: string) {
  try {
    for (const name of await fsp.readdir(tmpDir)) {
      if (!name.startsWith("download-")) continue;
      const file = path.join(tmpDir, name);
      const { mtimeMs } = await fsp.stat(file);
      if (Date.now() - mtimeMs > 60 * 60 * 1000) await fsp.rm(file, { force: true });
    }
  } catch {
    /* no folder yet, or a file gone meanwhile */
  }
}

/** A size that is not the recorded one, seen while copying the object out. */
class LongerThanRecorded extends Error {}

/**
 * Objects in one bucket of an S3-compatible store through the AWS SDK v3 (decision 0024). Uploads
 * stream through @aws-sdk/lib-storage (one PutObject, or a multipart upload past 5 MB that is
 * aborted when the source fails); a checked read copies the object to `tmpDir` while hashing it and
 * hands out that copy only when it matched.
 */
export function createS3Driver(settings: S3Settings, tmpDir: string): StorageDriver {
  const Bucket = settings.bucket;
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    // The SDK's newer default checksums (CRC32 on every request) are not understood by every
    // S3-compatible store; our own SHA-256 checks every read anyway.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });

  // Checked copies a killed process left behind (a live one unlinks its own within its request).
  void sweepStaleCopies(tmpDir);

  async function get(key: string): Promise<GetObjectCommandOutput & { Body: Readable }> {
    try {
      const res = await client.send(new GetObjectCommand({ Bucket, Key: key }));
      return res as GetObjectCommandOutput & { Body: Readable };
    } catch (err) {
      if (isMissing(err)) throw new StoredFileMissing(key);
      throw err;
    }
  }

  async function remove(key: string) {
    await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
  }

  return {
    name: "s3",
    describe: () =>
      `S3 bucket ${Bucket}${settings.endpoint ? ` at ${new URL(settings.endpoint).origin}` : ""}`,
    async write(key, source, maxBytes) {
      const meter = metered(source, maxBytes);
      let sourceError: Error | null = null;
      source.once("error", (err) => (sourceError = err));
      pipeCallback(source, meter.stream, () => undefined); // errors reach the upload through meter.stream
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: meter.stream, ContentType: "application/octet-stream" },
        queueSize: 1,
        partSize: PART_SIZE,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (err) {
        source.resume(); // drain what the client still sends, so the error can be answered
        meter.stream.destroy();
        // An upload that completed before something failed would leave an object: none may stay.
        await remove(key).catch(() => undefined);
        throw meter.failure ?? sourceError ?? err;
      }
      return meter.digest();
    },
    read(key) {
      const out = new PassThrough();
      get(key).then(
        (res) => pipeCallback(res.Body, out, () => undefined),
        (err: Error) => out.destroy(err),
      );
      return out;
    },
    async open(key, expected) {
      const res = await get(key);
      const length = res.ContentLength ?? null;
      if (expected.size !== null && length !== null && length !== expected.size) {
        res.Body.destroy();
        throw new StoredFileChanged(key, expected, { size: length, sha256: null });
      }
      await fsp.mkdir(tmpDir, { recursive: true, mode: 0o700 });
      const tmp = path.join(tmpDir, `download-${randomUUID()}`);
      const meter = metered(
        res.Body,
        expected.size ?? Number.POSITIVE_INFINITY,
        () => new LongerThanRecorded(),
      );
      try {
        try {
          await pipeline(res.Body, meter.stream, await newFileStream(tmp));
        } catch (err) {
          if (err instanceof LongerThanRecorded)
            throw new StoredFileChanged(key, expected, { size: expected.size! + 1, sha256: null });
          throw err;
        }
        const digest = meter.digest();
        if (
          (expected.size !== null && digest.size !== expected.size) ||
          (expected.sha256 !== null && digest.sha256 !== expected.sha256)
        )
          throw new StoredFileChanged(key, expected, digest);
        // The checked copy is opened, then unlinked: it goes away with the stream, however that ends.
        const handle = await fsp.open(tmp, "r");
        await fsp.rm(tmp, { force: true });
        const stream =
          digest.size === 0 ? (await handle.close(), Readable.from([])) : handle.createReadStream();
        return { ...digest, stream };
      } finally {
        await fsp.rm(tmp, { force: true });
      }
    },
    remove,
    async *list(prefix) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix ? `${prefix}/` : undefined, ContinuationToken }),
        );
        for (const o of page.Contents ?? []) if (o.Key) yield { key: o.Key, size: o.Size ?? 0 };
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async close() {
      client.destroy();
    },
  };
}
