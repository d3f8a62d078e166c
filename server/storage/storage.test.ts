import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { useS3Server } from "../test-support/harness.ts";

import {
  createStorage,
  StoredFileChanged,
  StoredFileMissing,
  type DriverName,
  type Storage,
} from "./storage.ts";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const MB = 1024 * 1024;

/** A source that yields `bytes` in chunks, as a request body arrives. */
const chunked = (bytes: Buffer, size = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    })(),
  );

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

async function keysOf(storage: Storage): Promise<string[]> {
  const keys: string[] = [];
  for await (const f of storage.list()) keys.push(f.key);
  return keys.sort();
}

function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error("expected a rejection");
    },
    (err: unknown) => err,
  );
}

// The same contract, on the local folder and on a real S3-protocol server (s3rver) on 127.0.0.1.
describe.each(["local", "s3"] as const)("storage on the %s driver", (driver: DriverName) => {
  const s3 = driver === "s3" ? useS3Server() : null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-storage-"));
  let storage: Storage;
  const company = "7d3f7a52-5a3c-4b0e-9a57-3a9c3b0e1f11";
  const prefix = `companies/${company}/attachments`;

  beforeAll(async () => {
    storage = await createStorage(loadConfig({ DATA_DIR: dataDir, ...(s3?.env ?? {}) }));
  });
  afterAll(async () => {
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Nothing left behind anywhere: no object, no file, no partial write, no download copy. */
  async function nothingStoredBut(keys: string[]) {
    expect(await keysOf(storage)).toEqual([...keys].sort());
    if (s3) expect(await s3.keys()).toEqual(keys.map((k) => k.replace(/^s3:/, "")).sort());
    const files = path.join(dataDir, "files");
    const onDisk = fs.existsSync(files)
      ? (fs.readdirSync(files, { recursive: true }) as string[]).filter((f) =>
          fs.statSync(path.join(files, f)).isFile(),
        )
      : [];
    expect(onDisk.sort()).toEqual(driver === "local" ? [...keys].sort() : []);
    const tmp = path.join(dataDir, "tmp");
    expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
  }

  it("says where new files go, naming no credential", () => {
    expect(storage.driver).toBe(driver);
    const described = storage.describe();
    expect(described).toMatch(
      driver === "s3" ? /^S3 bucket permitrack-test at http:\/\/127\.0\.0\.1:\d+$/ : /^local folder /,
    );
    expect(described).not.toContain("S3RVER");
  });

  it("stores a file under a new key in the prefix, with its size and SHA-256, and reads it back", async () => {
    const bytes = Buffer.from("%PDF-1.4 permit");
    const stored = await storage.put(prefix, chunked(bytes, 4), 1000);
    const marker = driver === "s3" ? "s3:" : "";
    expect(stored.key).toMatch(new RegExp(`^${marker}${prefix}/[0-9a-f-]{36}$`));
    expect(stored).toMatchObject({ size: bytes.length, sha256: sha(bytes) });
    expect(await bytesOf(storage.read(stored.key))).toEqual(bytes);
    const opened = await storage.open(stored.key, { size: bytes.length, sha256: sha(bytes) });
    expect(opened).toMatchObject({ size: bytes.length, sha256: sha(bytes) });
    expect(await bytesOf(opened.stream)).toEqual(bytes);
    await nothingStoredBut([stored.key]);
    await storage.remove(stored.key);
    await storage.remove(stored.key); // a second remove is no error
    await nothingStoredBut([]);
  });

  it("streams a file larger than one part (a multipart upload on S3) byte for byte", async () => {
    const bytes = randomBytes(12 * MB + 123);
    const stored = await storage.put(prefix, chunked(bytes), 13 * MB);
    expect(stored).toMatchObject({ size: bytes.length, sha256: sha(bytes) });
    const opened = await storage.open(stored.key, { size: bytes.length, sha256: sha(bytes) });
    expect(sha(await bytesOf(opened.stream))).toBe(sha(bytes));
    await storage.remove(stored.key);
    await nothingStoredBut([]);
  });

  it("refuses a file past the limit with 413 and stores nothing, small or past the first part", async () => {
    for (const [size, max] of [
      [1001, 1000],
      [12 * MB, 7 * MB],
    ] as const) {
      const err = await rejection(storage.put(prefix, chunked(randomBytes(size)), max));
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 413, code: "PAYLOAD_TOO_LARGE" });
      await nothingStoredBut([]);
    }
    // exactly at the limit is stored
    const atLimit = await storage.put(prefix, chunked(randomBytes(1000)), 1000);
    expect(atLimit.size).toBe(1000);
    await storage.remove(atLimit.key);
  });

  it("refuses an upload the multipart parser cut off at its limit (truncated), storing nothing", async () => {
    const source = chunked(Buffer.alloc(5000, 1)) as Readable & { truncated?: boolean };
    source.truncated = true;
    expect(await rejection(storage.put(prefix, source, 10_000))).toMatchObject({ status: 413 });
    await nothingStoredBut([]);
  });

  it("stores nothing when the upload breaks off midway, and answers the source's error", async () => {
    const source = new Readable({ read() {} });
    const put = storage.put(prefix, source, 20 * MB);
    source.push(randomBytes(6 * MB));
    setTimeout(() => source.destroy(new Error("client went away")), 200);
    expect(await rejection(put)).toMatchObject({ message: "client went away" });
    await nothingStoredBut([]);
  });

  it("answers StoredFileMissing for a key with no file, on open and on read", async () => {
    const key = `${driver === "s3" ? "s3:" : ""}${prefix}/00000000-0000-4000-8000-000000000000`;
    expect(await rejection(storage.open(key, { size: 1, sha256: null }))).toBeInstanceOf(StoredFileMissing);
    expect(await rejection(bytesOf(storage.read(key)))).toBeInstanceOf(StoredFileMissing);
  });

  it("refuses a tampered file before handing out a byte: same size, other size, and checks without a hash", async () => {
    const bytes = Buffer.from("the surety bond as signed");
    const stored = await storage.put(prefix, chunked(bytes), 1000);
    const expected = { size: stored.size, sha256: stored.sha256 };
    const own = stored.key.replace(/^s3:/, "");
    const tamper = async (content: string) => {
      if (s3) await s3.putBytes(own, content);
      else fs.writeFileSync(path.join(dataDir, "files", own), content);
    };

    await tamper("the surety bond as FORGED"); // the same length
    const sameSize = await rejection(storage.open(stored.key, expected));
    expect(sameSize).toBeInstanceOf(StoredFileChanged);
    expect(sameSize).toMatchObject({
      expected,
      actual: { size: bytes.length, sha256: sha(Buffer.from("the surety bond as FORGED")) },
    });

    await tamper("shorter");
    expect(await rejection(storage.open(stored.key, expected))).toMatchObject({
      actual: { size: 7 },
    });
    await tamper("the surety bond as signed, and a clause more");
    expect(await rejection(storage.open(stored.key, expected))).toBeInstanceOf(StoredFileChanged);
    // Only the size known (a row from before hashes): a changed size is still refused...
    expect(await rejection(storage.open(stored.key, { size: bytes.length, sha256: null }))).toBeInstanceOf(
      StoredFileChanged,
    );
    // ...and a matching one is served with the hash it was read with, for the row to record.
    await tamper(bytes.toString());
    const opened = await storage.open(stored.key, { size: bytes.length, sha256: null });
    expect(opened.sha256).toBe(sha(bytes));
    expect(await bytesOf(opened.stream)).toEqual(bytes);
    await storage.remove(stored.key);
    await nothingStoredBut([]);
  });

  it("writes at a given key (restores, moves) and lists what is stored with sizes", async () => {
    const marker = driver === "s3" ? "s3:" : "";
    const a = `${marker}companies/${company}/logos/11111111-1111-4111-8111-111111111111`;
    const b = `${marker}${prefix}/22222222-2222-4222-8222-222222222222`;
    expect(await storage.write(a, chunked(Buffer.from("logo")))).toEqual({
      size: 4,
      sha256: sha(Buffer.from("logo")),
    });
    await storage.write(b, chunked(Buffer.from("document")));
    await storage.write(b, chunked(Buffer.from("document v2"))); // replaces
    const listed: { key: string; size: number }[] = [];
    for await (const f of storage.list(driver)) listed.push(f);
    expect(listed.sort((x, y) => x.key.localeCompare(y.key))).toEqual(
      [
        { key: a, size: 4 },
        { key: b, size: 11 },
      ].sort((x, y) => x.key.localeCompare(y.key)),
    );
    expect((await bytesOf(storage.read(b))).toString()).toBe("document v2");
    await storage.remove(a);
    await storage.remove(b);
    await nothingStoredBut([]);
  });
});

describe("storage across the two drivers", () => {
  const s3 = useS3Server();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-storage-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("reads files of the local folder when new ones go to the bucket, and the other way round nothing", async () => {
    const localOnly = await createStorage(loadConfig({ DATA_DIR: dataDir }));
    const local = await localOnly.put("companies/x/attachments", chunked(Buffer.from("before S3")), 100);
    const withS3 = await createStorage(loadConfig({ DATA_DIR: dataDir, ...s3.env }));
    const inBucket = await withS3.put("companies/x/attachments", chunked(Buffer.from("after S3")), 100);
    expect(inBucket.key.startsWith("s3:")).toBe(true);
    expect((await bytesOf(withS3.read(local.key))).toString()).toBe("before S3");
    expect((await bytesOf(withS3.read(inBucket.key))).toString()).toBe("after S3");
    const both: string[] = [];
    for await (const f of withS3.list()) both.push(f.key);
    expect(both.sort()).toEqual([local.key, inBucket.key].sort());
    // A node without the bucket configured cannot reach its files: missing, not a crash.
    expect(await rejection(localOnly.open(inBucket.key, { size: 8, sha256: null }))).toBeInstanceOf(
      StoredFileMissing,
    );
    expect(await rejection(bytesOf(localOnly.read(inBucket.key)))).toBeInstanceOf(StoredFileMissing);
    await localOnly.remove(inBucket.key); // left in the bucket, no error
    expect(await s3.keys()).toEqual([inBucket.key.slice(3)]);
    await withS3.close();
    await localOnly.close();
  });

  it("clears download copies a killed process left in DATA_DIR/tmp (over an hour old), and no others", async () => {
    const tmp = path.join(dataDir, "tmp");
    fs.mkdirSync(tmp, { recursive: true });
    for (const name of ["download-stale", "download-fresh", "not-a-copy"])
      fs.writeFileSync(path.join(tmp, name), "x");
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(path.join(tmp, "download-stale"), twoHoursAgo, twoHoursAgo);
    fs.utimesSync(path.join(tmp, "not-a-copy"), twoHoursAgo, twoHoursAgo);
    const storage = await createStorage(loadConfig({ DATA_DIR: dataDir, ...s3.env }));
    await expect.poll(() => fs.readdirSync(tmp).sort()).toEqual(["download-fresh", "not-a-copy"]);
    await storage.close();
  });
});
