import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * The secret the tests give the app. s3rver checks the access key (its own, S3RVER) but no
 * signature, so any secret works: this one is distinctive, for tests that prove it is never logged.
 */
export const TEST_S3_SECRET = "test-s3-secret-never-logged-7f3a9c";

/**
 * A real S3-protocol server on 127.0.0.1 (scripts/s3-server.mjs: s3rver, decision 0024) in a child
 * process of its own, with an empty bucket; and a client of the tests' own to look at or change the
 * bucket behind the app's back. API tests take it with useS3Server() (harness.ts); the resilience
 * suite starts one for its two nodes.
 */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The app's S3_* variables for this server. */
  env: Record<string, string>;
  client: S3Client;
  /** Every object key in the bucket. */
  keys(): Promise<string[]>;
  getBytes(key: string): Promise<Buffer>;
  putBytes(key: string, bytes: Buffer | string): Promise<void>;
  deleteKey(key: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3Server(opts: { bucket?: string } = {}): Promise<TestS3Server> {
  const bucket = opts.bucket ?? "permitrack-test";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-s3-"));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--openssl-legacy-provider",
      path.join(root, "scripts", "s3-server.mjs"),
      "--port",
      "0",
      "--dir",
      dir,
      "--bucket",
      bucket,
      "--exit-with-stdin",
    ],
    { cwd: root, stdio: ["pipe", "pipe", "pipe"] },
  );
  let output = "";
  const ready = await new Promise<{ endpoint: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the S3 server did not start:\n${output}`)), 30_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const line = output.split("\n").find((l) => l.startsWith("{"));
      if (line && output.includes("\n")) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { endpoint: string });
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the S3 server exited (${code}):\n${output}`));
    });
  });
  const client = new S3Client({
    region: "us-east-1",
    endpoint: ready.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  return {
    endpoint: ready.endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: ready.endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: TEST_S3_SECRET,
      S3_FORCE_PATH_STYLE: "true",
    },
    client,
    async keys() {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys.sort();
    },
    async getBytes(key) {
      const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await res.Body!.transformToByteArray());
    },
    async putBytes(key, bytes) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.from(bytes) }));
    },
    async deleteKey(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async stop() {
      client.destroy();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
