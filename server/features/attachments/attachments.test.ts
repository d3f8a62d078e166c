import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { attachments, permitAudit } from "../../db/schema.ts";
import { multipart, type MultipartPart } from "../../test-support/multipart.ts";
import { useS3Server, useTestContext, type ApiClient } from "../../test-support/harness.ts";
import { TEST_S3_SECRET } from "../../test-support/s3-server.ts";
import { useWorld } from "../../test-support/world.ts";

const MAX = 4096;
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const sha = (content: string) => createHash("sha256").update(content).digest("hex");

type Part = MultipartPart;

function upload(api: ApiClient, permitId: string, file: Omit<Part, "name"> & { name?: string }) {
  return api.request({
    method: "POST",
    url: `/api/permits/${permitId}/attachments`,
    ...multipart([{ name: "file", ...file }]),
  });
}

// Every test, on the local folder and on a real S3-protocol server on 127.0.0.1 (s3rver): the
// routes answer alike, whichever driver holds the bytes.
describe.each(["local", "s3"] as const)("attachments on the %s storage", (driver) => {
  const s3 = driver === "s3" ? useS3Server() : null;
  const logLines: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  const t = useTestContext(() => ({ UPLOAD_MAX_BYTES: String(MAX), ...(s3?.env ?? {}) }), { logStream });
  /** A new file's key: in the bucket (s3:) or the local folder, under its company's prefix. */
  const keyPattern = (companyId: string) =>
    new RegExp(`^${driver === "s3" ? "s3:" : ""}companies/${companyId}/attachments/${UUID}$`);

  /**
   * Every stored file, finished or partial: the local folder's (paths), the bucket's (s3: keys), and
   * the copies downloads check (DATA_DIR/tmp), which must never outlive a request.
   */
  async function storedFiles(): Promise<string[]> {
    const root = path.join(t.dataDir, "files");
    const local = fs.existsSync(root)
      ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) =>
          fs.statSync(path.join(root, f)).isFile(),
        )
      : [];
    const tmp = path.join(t.dataDir, "tmp");
    const copies = fs.existsSync(tmp) ? fs.readdirSync(tmp).map((f) => `tmp/${f}`) : [];
    const objects = s3 ? (await s3.keys()).map((k) => `s3:${k}`) : [];
    return [...local, ...copies, ...objects].sort();
  }

  /** Changes a stored file behind the app's back (a disk or bucket someone else can write to). */
  async function tamper(storageKey: string, content: string) {
    if (s3) await s3.putBytes(storageKey.replace(/^s3:/, ""), content);
    else fs.writeFileSync(path.join(t.dataDir, "files", storageKey), content);
  }
  async function deleteStored(storageKey: string) {
    if (s3) await s3.deleteKey(storageKey.replace(/^s3:/, ""));
    else fs.rmSync(path.join(t.dataDir, "files", storageKey));
  }

  // The world's company-user, Sam Baker, uploads in most tests.
  const w = useWorld(t, { permits: true });

  const rowsOf = (permitId: string) =>
    t.db.select().from(attachments).where(eq(attachments.permitId, permitId));
  const auditOf = (permitId: string) =>
    t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permitId));

  describe("sign-in and scope", () => {
    it("requires sign-in for list, upload and download", async () => {
      expect((await t.anonymous.get(`/api/permits/${w.permitId}/attachments`)).statusCode).toBe(401);
      expect((await upload(t.anonymous, w.permitId, { filename: "a.txt", content: "a" })).statusCode).toBe(
        401,
      );
      expect((await t.anonymous.get(`/api/attachments/${t.make.uuid()}/download`)).statusCode).toBe(401);
      expect(await storedFiles()).toEqual([]);
    });

    it("answers 404 for another company's permit on every route, and stores nothing", async () => {
      const mine = await upload(w.superAdmin, w.foreignPermitId, {
        filename: "theirs.txt",
        content: "secret",
      });
      expect(mine.statusCode).toBe(201);
      const foreignId = mine.json().attachment.id;
      const before = (await storedFiles()).length;

      expect((await w.admin.get(`/api/permits/${w.foreignPermitId}/attachments`)).statusCode).toBe(404);
      expect((await upload(w.admin, w.foreignPermitId, { filename: "x.txt", content: "x" })).statusCode).toBe(
        404,
      );
      const download = await w.admin.get(`/api/attachments/${foreignId}/download`);
      expect(download.statusCode).toBe(404);
      expect(download.body).not.toContain("secret");
      expect(await storedFiles()).toHaveLength(before);
      expect(await rowsOf(w.foreignPermitId)).toHaveLength(1);
    });

    it("answers 404 for a client-user's invisible permit on every route", async () => {
      const hidden = await upload(w.admin, w.hiddenPermitId, { filename: "hidden.txt", content: "hidden" });
      expect(hidden.statusCode).toBe(201);
      expect((await w.clientUser.get(`/api/permits/${w.hiddenPermitId}/attachments`)).statusCode).toBe(404);
      expect(
        (await upload(w.clientUser, w.hiddenPermitId, { filename: "x.txt", content: "x" })).statusCode,
      ).toBe(404);
      expect(
        (await w.clientUser.get(`/api/attachments/${hidden.json().attachment.id}/download`)).statusCode,
      ).toBe(404);
    });

    it("answers 404 for unknown ids and 400 for malformed ones", async () => {
      expect((await w.admin.get(`/api/permits/${t.make.uuid()}/attachments`)).statusCode).toBe(404);
      expect((await w.admin.get(`/api/attachments/${t.make.uuid()}/download`)).statusCode).toBe(404);
      expect((await w.admin.get(`/api/attachments/nope/download`)).statusCode).toBe(400);
      const bad = await w.admin.get(`/api/permits/${w.permitId}/attachments?include_archived=maybe`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields.include_archived).toBeTruthy();
    });
  });

  describe("roles", () => {
    it("refuses an upload by a client-user (403), storing nothing", async () => {
      const before = (await storedFiles()).length;
      const res = await upload(w.clientUser, w.permitId, { filename: "mine.pdf", content: "%PDF-1.4" });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe("FORBIDDEN");
      expect(await storedFiles()).toHaveLength(before);
      expect(await rowsOf(w.permitId)).toHaveLength(0);
    });

    it("lets a company-user upload; everyone who sees the permit lists and downloads it", async () => {
      const res = await upload(w.user, w.permitId, {
        filename: "site-plan.pdf",
        contentType: "application/pdf",
        content: "%PDF-1.4 plan",
      });
      expect(res.statusCode).toBe(201);
      const attachment = res.json().attachment;
      expect(attachment).toMatchObject({
        filename: "site-plan.pdf",
        contentType: "application/pdf",
        size: 13,
        archived: false,
        uploadedByName: "Sam Baker",
        downloadUrl: `/api/attachments/${attachment.id}/download`,
      });
      expect(Object.keys(attachment).sort()).toEqual(
        [
          "archived",
          "contentType",
          "createdAt",
          "downloadUrl",
          "filename",
          "id",
          "size",
          "uploadedByName",
        ].sort(),
      );

      for (const api of [w.user, w.admin, w.clientUser, w.superAdmin]) {
        const list = await api.get(`/api/permits/${w.permitId}/attachments`);
        expect(list.statusCode).toBe(200);
        expect(list.json().attachments.map((a: { id: string }) => a.id)).toEqual([attachment.id]);
        const file = await api.get(attachment.downloadUrl);
        expect(file.statusCode).toBe(200);
        expect(file.body).toBe("%PDF-1.4 plan");
        expect(file.headers["content-type"]).toBe("application/pdf");
        expect(file.headers["content-disposition"]).toBe(
          `attachment; filename="site-plan.pdf"; filename*=UTF-8''site-plan.pdf`,
        );
        expect(file.headers["x-content-type-options"]).toBe("nosniff");
      }
    });
  });

  describe("upload", () => {
    it("archives the current attachments in the same transaction as the new row and the audit entries", async () => {
      const permit = await t.make.permit({ companyId: w.companyId });
      const first = (await upload(w.user, permit.id, { filename: "v1.txt", content: "one" })).json()
        .attachment;
      const second = (await upload(w.user, permit.id, { filename: "v2.txt", content: "two" })).json()
        .attachment;

      const current = await w.user.get(`/api/permits/${permit.id}/attachments?include_archived=false`);
      expect(current.json().attachments.map((a: { filename: string }) => a.filename)).toEqual(["v2.txt"]);
      const all = await w.user.get(`/api/permits/${permit.id}/attachments?include_archived=true`);
      expect(
        all.json().attachments.map((a: { filename: string; archived: boolean }) => [a.filename, a.archived]),
      ).toEqual([
        ["v2.txt", false],
        ["v1.txt", true],
      ]);
      // an archived file can still be downloaded
      expect((await w.user.get(first.downloadUrl)).body).toBe("one");
      expect((await w.user.get(second.downloadUrl)).body).toBe("two");

      const audit = await auditOf(permit.id);
      expect(audit.map((a) => [a.action, a.field, a.oldValue, a.newValue]).sort()).toEqual([
        ["archive", "attachment", "v1.txt", null],
        ["upload", "attachment", null, "v1.txt"],
        ["upload", "attachment", null, "v2.txt"],
      ]);
      // the archive entry and the upload that caused it were written together
      const secondUpload = audit.find((a) => a.newValue === "v2.txt")!;
      const archive = audit.find((a) => a.action === "archive")!;
      expect(archive.timestamp.getTime()).toBe(secondUpload.timestamp.getTime());
      const trail = (await w.user.get(`/api/permits/${permit.id}/audit`)).json().entries;
      expect(trail.map((e: { action: string }) => e.action)).toEqual(["upload", "archive", "upload"]);
    });

    it("answers 413 over the size limit, leaving no file, no row and no audit entry", async () => {
      const permit = await t.make.permit({ companyId: w.companyId });
      const before = await storedFiles();
      const res = await upload(w.user, permit.id, { filename: "big.bin", content: Buffer.alloc(MAX + 1, 7) });
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe("PAYLOAD_TOO_LARGE");
      expect(await storedFiles()).toEqual(before);
      expect(await rowsOf(permit.id)).toHaveLength(0);
      expect(await auditOf(permit.id)).toHaveLength(0);

      // exactly at the limit is fine
      expect(
        (await upload(w.user, permit.id, { filename: "max.bin", content: Buffer.alloc(MAX, 7) })).statusCode,
      ).toBe(201);
    });

    it("keeps the current attachment when an upload is too large", async () => {
      const permit = await t.make.permit({ companyId: w.companyId });
      await upload(w.user, permit.id, { filename: "keep.txt", content: "keep" });
      expect(
        (await upload(w.user, permit.id, { filename: "big.bin", content: Buffer.alloc(MAX * 2) })).statusCode,
      ).toBe(413);
      const rows = await rowsOf(permit.id);
      expect(rows.map((r) => [r.filename, r.archived])).toEqual([["keep.txt", false]]);
    });

    it("rejects an empty file, a missing file, another field name and a JSON body with 400, storing nothing", async () => {
      const permit = await t.make.permit({ companyId: w.companyId });
      const before = await storedFiles();
      const empty = await upload(w.user, permit.id, { filename: "empty.txt", content: "" });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().fields.file).toBe("The file is empty.");

      const wrongField = await upload(w.user, permit.id, {
        name: "document",
        filename: "a.txt",
        content: "a",
      });
      expect(wrongField.statusCode).toBe(400);
      expect(wrongField.json().fields.file).toBeTruthy();

      const noFile = await w.user.request({
        method: "POST",
        url: `/api/permits/${permit.id}/attachments`,
        ...multipart([{ name: "note", content: "just a field" }]),
      });
      expect(noFile.statusCode).toBe(400);

      const json = await w.user.post(`/api/permits/${permit.id}/attachments`, { file: "a" });
      expect(json.statusCode).toBe(400);

      expect(await storedFiles()).toEqual(before);
      expect(await rowsOf(permit.id)).toHaveLength(0);
    });

    it("never uses the client's file name as a path, and keeps unicode names for the download", async () => {
      const permit = await t.make.permit({ companyId: w.companyId });
      for (const [sent, shown] of [
        ["../../../../etc/Straße ✓ plan.txt", "Straße ✓ plan.txt"],
        ["..\\..\\evil\\win.ini", "win.ini"],
        ["..", "file"],
      ] as const) {
        const res = await upload(w.user, permit.id, { filename: sent, content: "content" });
        expect(res.statusCode, sent).toBe(201);
        expect(res.json().attachment.filename).toBe(shown);
        const [row] = await t.db
          .select()
          .from(attachments)
          .where(eq(attachments.id, res.json().attachment.id));
        expect(row!.storageKey).toMatch(keyPattern(w.companyId));
      }
      expect(fs.existsSync(path.join(t.dataDir, "etc"))).toBe(false);
      for (const f of await storedFiles()) expect(f).toMatch(keyPattern(UUID));

      const [unicode] = (await w.user.get(`/api/permits/${permit.id}/attachments?include_archived=true`))
        .json()
        .attachments.filter((a: { filename: string }) => a.filename.startsWith("Straße"));
      const file = await w.user.get(unicode.downloadUrl);
      expect(file.headers["content-disposition"]).toBe(
        `attachment; filename="Stra_e _ plan.txt"; filename*=UTF-8''Stra%C3%9Fe%20%E2%9C%93%20plan.txt`,
      );
    });

    it("serves HTML, SVG and JavaScript as downloads with nosniff, never inline", async () => {
      const permit = await t.make.permit({ companyId: w.companyId });
      for (const [filename, contentType, content] of [
        ["page.html", "text/html", "<script>alert(1)</script>"],
        ["logo.svg", "image/svg+xml", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
        ["app.js", "text/javascript", "alert(1)"],
        ["data.xml", "application/xml", "<a/>"],
      ] as const) {
        const res = await upload(w.user, permit.id, { filename, contentType, content });
        expect(res.statusCode).toBe(201);
        const file = await w.user.get(res.json().attachment.downloadUrl);
        expect(file.statusCode).toBe(200);
        expect(file.headers["content-type"], filename).toBe("application/octet-stream");
        expect(file.headers["content-disposition"]).toMatch(/^attachment; /);
        expect(file.headers["x-content-type-options"]).toBe("nosniff");
        expect(file.headers["content-security-policy"]).toContain("sandbox");
        expect(file.body).toBe(content);
      }
    });

    it("leaves the data and the disk as they were when the transaction fails", async () => {
      const permit = await t.make.permit({ companyId: w.companyId });
      await upload(w.user, permit.id, { filename: "current.txt", content: "current" });
      const before = await storedFiles();
      await t.database.exec(`
      create function fail_audit() returns trigger language plpgsql as $$ begin raise exception 'injected'; end $$;
      create trigger fail_audit before insert on permit_audit for each row execute function fail_audit();`);
      try {
        const res = await upload(w.user, permit.id, { filename: "next.txt", content: "next" });
        expect(res.statusCode).toBe(500);
      } finally {
        await t.database.exec("drop trigger fail_audit on permit_audit; drop function fail_audit();");
      }
      expect(await storedFiles()).toEqual(before);
      const rows = await rowsOf(permit.id);
      expect(rows.map((r) => [r.filename, r.archived])).toEqual([["current.txt", false]]);
    });

    it("answers 404, not a broken download, when the stored file has gone missing", async () => {
      const permit = await t.make.permit({ companyId: w.companyId });
      const attachment = (await upload(w.user, permit.id, { filename: "gone.txt", content: "gone" })).json()
        .attachment;
      const [row] = await t.db.select().from(attachments).where(eq(attachments.id, attachment.id));
      await deleteStored(row!.storageKey);
      const res = await w.user.get(attachment.downloadUrl);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: "NOT_FOUND", message: "File not found." });
      expect(res.headers["content-disposition"]).toBeUndefined();
    });

    it("lets a super-admin upload to any company, under that company's prefix", async () => {
      const res = await upload(w.superAdmin, w.permitId, { filename: "platform.txt", content: "p" });
      expect(res.statusCode).toBe(201);
      const [row] = await t.db.select().from(attachments).where(eq(attachments.id, res.json().attachment.id));
      expect(row!.companyId).toBe(w.companyId);
      expect(row!.storageKey).toMatch(keyPattern(w.companyId));
    });
  });

  describe("download checks", () => {
    it("records each upload's size and SHA-256 on its row", async () => {
      const permit = await t.make.permit({ companyId: w.companyId });
      const res = await upload(w.user, permit.id, { filename: "bond.pdf", content: "%PDF-1.7 bond" });
      const [row] = await t.db.select().from(attachments).where(eq(attachments.id, res.json().attachment.id));
      expect(row).toMatchObject({ size: 13, sha256: sha("%PDF-1.7 bond") });
      expect(await storedFiles()).toContain(row!.storageKey);
    });

    it("refuses a file changed in storage (409 FILE_CHANGED), sends none of it, and logs it without a secret", async () => {
      const permit = await t.make.permit({ companyId: w.companyId });
      const attachment = (
        await upload(w.user, permit.id, { filename: "release.pdf", content: "Release of bond: $10,000" })
      ).json().attachment;
      const [row] = await t.db.select().from(attachments).where(eq(attachments.id, attachment.id));
      for (const forged of ["Release of bond: $90,000", "Release of bond: $1,000,000"]) {
        await tamper(row!.storageKey, forged);
        logLines.length = 0;
        const res = await w.user.get(attachment.downloadUrl);
        expect(res.statusCode, forged).toBe(409);
        expect(res.json()).toEqual({
          code: "FILE_CHANGED",
          message:
            "This file has changed in storage since it was uploaded, so it was not sent. An administrator can restore it from a backup.",
        });
        expect(res.body).not.toContain("Release of bond");
        expect(res.headers["content-disposition"]).toBeUndefined();
        const logged = logLines.find((l) => l.level === 50);
        expect(logged).toMatchObject({
          msg: "file changed in storage since it was uploaded: refused, not served",
          attachmentId: attachment.id,
          key: row!.storageKey,
          expected: { size: 24, sha256: sha("Release of bond: $10,000") },
        });
        expect(JSON.stringify(logLines)).not.toContain(TEST_S3_SECRET);
        expect(JSON.stringify(logLines)).not.toContain("Release of bond");
      }
      // Put back as uploaded, it is served again; no checked copy outlives a request.
      await tamper(row!.storageKey, "Release of bond: $10,000");
      expect((await w.user.get(attachment.downloadUrl)).body).toBe("Release of bond: $10,000");
      expect((await storedFiles()).filter((f) => f.startsWith("tmp/"))).toEqual([]);
    });

    it("checks a file stored before checksums by its size, and records its hash at its first download", async () => {
      const permit = await t.make.permit({ companyId: w.companyId });
      const attachment = (
        await upload(w.user, permit.id, { filename: "old.txt", content: "an old file" })
      ).json().attachment;
      await t.db.update(attachments).set({ sha256: null }).where(eq(attachments.id, attachment.id));
      const first = await w.user.get(attachment.downloadUrl);
      expect(first.statusCode).toBe(200);
      expect(first.body).toBe("an old file");
      const [row] = await t.db.select().from(attachments).where(eq(attachments.id, attachment.id));
      expect(row!.sha256).toBe(sha("an old file"));
      // From then on it is checked like any other file.
      await tamper(row!.storageKey, "an odd file");
      expect((await w.user.get(attachment.downloadUrl)).statusCode).toBe(409);
      // Without a hash, a changed size is still refused, and nothing is recorded.
      await t.db.update(attachments).set({ sha256: null }).where(eq(attachments.id, attachment.id));
      await tamper(row!.storageKey, "an old file, longer");
      expect((await w.user.get(attachment.downloadUrl)).statusCode).toBe(409);
      const [after] = await t.db.select().from(attachments).where(eq(attachments.id, attachment.id));
      expect(after!.sha256).toBeNull();
    });
  });
});
