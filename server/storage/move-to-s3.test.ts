import { spawnSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { attachments, companies, requestFiles } from "../db/schema.ts";
import { makeDocumentRequest } from "../test-support/document-requests.ts";
import { useS3Server, useTestContext } from "../test-support/harness.ts";
import { multipart } from "../test-support/multipart.ts";

import { useWorld } from "../test-support/world.ts";
import { bucketKeyFor, moveFilesToS3, type MoveReport } from "./move-to-s3.ts";
import { createStorage, type Storage } from "./storage.ts";
import { listStoredFiles, type StoredFileRow } from "./stored-files.ts";

const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const SECRET = "test-secret-test-secret-test-secret-0123";

// The files start in the local folder of an app without S3, as a deployment before issue 26 has them.
const s3 = useS3Server();
const t = useTestContext();
const w = useWorld(t, { permits: true });
let withS3: Storage;

beforeAll(async () => {
  withS3 = await createStorage(loadConfig({ DATA_DIR: t.dataDir, ...s3.env }));
});
afterAll(async () => {
  await withS3?.close();
});

const upload = (permitId: string, filename: string, content: string) =>
  w.user.request({
    method: "POST",
    url: `/api/permits/${permitId}/attachments`,
    ...multipart([{ name: "file", filename, content }]),
  });

async function rowOf(id: string) {
  const [row] = await t.db.select().from(attachments).where(eq(attachments.id, id));
  return row!;
}

/** A file as stored before issue 26: under the old key scheme, its row without a hash. */
async function legacyAttachment(permitId: string, content: string) {
  const key = `attachments/${w.companyId}/${randomUUID()}`;
  await t.app.ctx.storage.write(key, Readable.from([Buffer.from(content)]));
  const [row] = await t.db
    .insert(attachments)
    .values({
      permitId,
      companyId: w.companyId,
      filename: "legacy.txt",
      storageKey: key,
      contentType: "text/plain",
      size: Buffer.byteLength(content),
      uploadedBy: w.userId,
    })
    .returning();
  return row!;
}

describe("npm run storage:migrate (moveFilesToS3)", () => {
  const contents = new Map<string, string>(); // attachment id → bytes uploaded
  let logoCompanyId = "";
  let missingId = "";
  let changedId = "";
  let first: MoveReport;

  it("moves every checked local file to the bucket, switches its row only then, and counts", async () => {
    for (const [name, content] of [
      ["permit.pdf", "%PDF-1.4 the permit"],
      ["plan.pdf", "%PDF-1.4 the site plan"],
    ]) {
      const res = await upload(w.permitId, name!, content!);
      expect(res.statusCode).toBe(201);
      contents.set(res.json().attachment.id, content!);
    }
    const legacy = await legacyAttachment(w.permitId, "a file from before checksums");
    contents.set(legacy.id, "a file from before checksums");
    // A logo from before checksums, under the old key scheme.
    logoCompanyId = w.otherCompanyId;
    const logoKey = `logos/${logoCompanyId}/${randomUUID()}`;
    await t.app.ctx.storage.write(logoKey, Readable.from([PNG]));
    await t.db
      .update(companies)
      .set({ logoKey, logoContentType: "image/png" })
      .where(eq(companies.id, logoCompanyId));
    // A row whose file is not in this folder, and one whose file changed since it was uploaded.
    missingId = (await legacyAttachment(w.permitId, "gone")).id;
    fs.rmSync(path.join(t.dataDir, "files", (await rowOf(missingId)).storageKey));
    const changed = await upload(w.permitId, "changed.txt", "as uploaded");
    changedId = changed.json().attachment.id;
    fs.writeFileSync(path.join(t.dataDir, "files", (await rowOf(changedId)).storageKey), "as altered");
    const localKeys = new Map<string, string>();
    for (const id of contents.keys()) localKeys.set(id, (await rowOf(id)).storageKey);

    const lines: string[] = [];
    first = await moveFilesToS3(t.db, withS3, (line) => lines.push(line));
    expect(first).toEqual({
      files: 6,
      moved: 4,
      alreadyInBucket: 0,
      missing: 1,
      changed: 1,
      failed: 0,
      skipped: 0,
    });
    expect(lines.join("\n")).toContain(`missing from the local folder: attachment ${missingId}`);
    expect(lines.join("\n")).toContain(`not the bytes its row recorded, not copied: attachment ${changedId}`);

    // Each moved row points at its object in the company's namespace, with the checked hash; the
    // object holds exactly the uploaded bytes; the local file is left where it was.
    for (const [id, content] of contents) {
      const row = await rowOf(id);
      expect(row.storageKey).toBe(bucketKeyFor(localKeys.get(id)!));
      expect(row.storageKey).toMatch(new RegExp(`^s3:companies/${w.companyId}/attachments/[0-9a-f-]{36}$`));
      expect(row.sha256).toBe(sha(content));
      expect(await s3.getBytes(row.storageKey.slice(3))).toEqual(Buffer.from(content));
      expect(fs.readFileSync(path.join(t.dataDir, "files", localKeys.get(id)!), "utf8")).toBe(content);
    }
    const [logo] = await t.db.select().from(companies).where(eq(companies.id, logoCompanyId));
    expect(logo).toMatchObject({
      logoKey: bucketKeyFor(logoKey),
      logoSha256: sha(PNG),
      logoSize: PNG.length,
    });
    expect(logo!.logoKey).toMatch(new RegExp(`^s3:companies/${logoCompanyId}/logos/`));
    expect(await s3.getBytes(logo!.logoKey!.slice(3))).toEqual(PNG);
    // The two it could not move keep their rows as they were, and nothing of them is in the bucket.
    expect((await rowOf(missingId)).storageKey.startsWith("s3:")).toBe(false);
    expect((await rowOf(changedId)).storageKey.startsWith("s3:")).toBe(false);
    expect((await s3.keys()).length).toBe(4);
  });

  it("lists every file the database refers to once, whatever the page size", async () => {
    const all: StoredFileRow[] = [];
    for await (const f of listStoredFiles(t.db)) all.push(f);
    const paged: StoredFileRow[] = [];
    for await (const f of listStoredFiles(t.db, 2)) paged.push(f);
    expect(paged).toEqual(all);
    expect(all.map((f) => f.owner)).toEqual([...Array(5).fill("attachment"), "logo"]);
    expect(new Set(all.map((f) => f.id)).size).toBe(6);
    const logo = all.find((f) => f.owner === "logo")!;
    expect(logo).toMatchObject({
      id: logoCompanyId,
      companyId: logoCompanyId,
      size: PNG.length,
      sha256: sha(PNG),
    });
  });

  it("is safe to run twice: the second run copies nothing and counts the files as in the bucket", async () => {
    const before = await s3.keys();
    const second = await moveFilesToS3(t.db, withS3);
    expect(second).toEqual({ ...first, moved: 0, alreadyInBucket: 4 });
    expect(await s3.keys()).toEqual(before);
  });

  it("serves the moved files from the bucket, through a node with a data folder of its own", async () => {
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-node-b-"));
    const nodeB = await buildApp({
      config: loadConfig({
        NODE_ENV: "test",
        DATA_DIR: otherDir,
        LOG_LEVEL: "silent",
        SESSION_SECRET: SECRET,
        PUBLIC_URL: "http://localhost:3000",
        SCHEDULER: "off",
        ...s3.env,
      }),
      database: t.database,
      webDir: path.join(otherDir, "no-web"),
    });
    try {
      for (const [id, content] of contents) {
        const res = await nodeB.inject({
          method: "GET",
          url: `/api/attachments/${id}/download`,
          headers: { cookie: w.user.cookie },
        });
        expect(res.statusCode).toBe(200);
        expect(res.body).toBe(content);
      }
      const missing = await nodeB.inject({
        method: "GET",
        url: `/api/attachments/${missingId}/download`,
        headers: { cookie: w.user.cookie },
      });
      expect(missing.statusCode).toBe(404);
      expect(fs.existsSync(path.join(otherDir, "files"))).toBe(false);
    } finally {
      await nodeB.close();
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it("refuses to run without a bucket", async () => {
    await expect(moveFilesToS3(t.db, t.app.ctx.storage)).rejects.toThrow(/S3_BUCKET is not set/);
  });

  // The command itself, as an operator runs it: a process of its own over the same PostgreSQL
  // database (an embedded one is held by the test's process, so this part needs PostgreSQL).
  it.runIf(process.env.TEST_DB === "pg")(
    "runs as `npm run storage:migrate`, reports counts and exits 1 while files are left",
    async () => {
      const fresh = await legacyAttachment(w.permitId, "one more, from before");
      const run = () =>
        spawnSync(process.execPath, ["--import", "tsx", "server/storage/move-to-s3-cli.ts"], {
          cwd: path.resolve(import.meta.dirname, "..", ".."),
          env: {
            ...process.env,
            DATABASE_URL: t.database.pool!.options.connectionString!,
            DATA_DIR: t.dataDir,
            SESSION_SECRET: SECRET,
            ...s3.env,
          },
          encoding: "utf8",
          timeout: 60_000,
        });
      const once = run();
      expect(once.stdout).toContain(
        "Files referred to: 7; moved now: 1; already in the bucket: 4; missing locally: 1; changed locally: 1; failed: 0; skipped (changed meanwhile): 0.",
      );
      expect(once.stdout).toContain("2 file(s) not moved");
      expect(once.status).toBe(1);
      expect((await rowOf(fresh.id)).sha256).toBe(sha("one more, from before"));
      // The two it cannot move are deleted; then a run finds everything in the bucket and exits 0.
      await t.db.delete(attachments).where(eq(attachments.id, missingId));
      await t.db.delete(attachments).where(eq(attachments.id, changedId));
      const twice = run();
      expect(twice.stdout).toContain("Files referred to: 5; moved now: 0; already in the bucket: 5;");
      expect(twice.stdout).toContain("Every file is in the bucket and checked.");
      expect(twice.status).toBe(0);
      expect(twice.stdout + twice.stderr).not.toContain(s3.env.S3_SECRET_ACCESS_KEY);
    },
  );
  it("moves the outside parties' uploads: one awaiting review, and one approved whose attachment shares its key", async () => {
    const permit = { id: w.permitId, companyId: w.companyId };
    const loose = await makeDocumentRequest(t, permit);
    const approved = await makeDocumentRequest(t, permit, { submitted: true });
    const ok = await w.admin.post(`/api/requests/${approved.id}/approve`, {
      submissionId: approved.submissionId,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const fileRow = async (id: string) =>
      (await t.db.select().from(requestFiles).where(eq(requestFiles.id, id)))[0]!;
    const attachmentId = (await fileRow(approved.fileId)).attachmentId!;
    expect((await rowOf(attachmentId)).storageKey).toBe((await fileRow(approved.fileId)).storageKey);

    const report = await moveFilesToS3(t.db, withS3);
    expect(report.moved).toBe(2); // the loose upload, and the attachment (its request file goes along)
    for (const id of [loose.fileId, approved.fileId]) {
      const row = await fileRow(id);
      expect(row.storageKey).toMatch(new RegExp(`^s3:companies/${w.companyId}/`));
      expect(sha(await s3.getBytes(row.storageKey.slice(3)))).toBe(row.sha256);
    }
    expect((await rowOf(attachmentId)).storageKey).toBe((await fileRow(approved.fileId)).storageKey);
  });
});
