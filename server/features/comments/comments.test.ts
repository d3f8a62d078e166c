import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { comments, permitAudit } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { COMMENT_MAX_LENGTH } from "../../../shared/schemas/comments.ts";

const t = useTestContext();

const w = useWorld(t, { permits: true });
/** The world's company-user, as comments name their author. */
const userName = "Sam Baker";

const commentRows = (permitId: string) => t.db.select().from(comments).where(eq(comments.permitId, permitId));
const auditRows = (permitId: string) =>
  t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permitId));

describe("GET /api/permits/:id/comments", () => {
  it("requires sign-in", async () => {
    const res = await t.anonymous.get(`/api/permits/${w.permitId}/comments`);
    expect(res.statusCode).toBe(401);
  });

  it("answers 404 for another company's permit, a client-user's invisible permit and an unknown id", async () => {
    expect((await w.admin.get(`/api/permits/${w.foreignPermitId}/comments`)).statusCode).toBe(404);
    expect((await w.clientUser.get(`/api/permits/${w.hiddenPermitId}/comments`)).statusCode).toBe(404);
    const unknown = await w.admin.get(`/api/permits/${t.make.uuid()}/comments`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("Permit not found.");
  });

  it("answers 400 for a malformed id", async () => {
    const res = await w.admin.get("/api/permits/not-a-uuid/comments");
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.id).toBeDefined();
  });
});

describe("POST /api/permits/:id/comments", () => {
  it("requires sign-in and writes nothing", async () => {
    const res = await t.anonymous.post(`/api/permits/${w.permitId}/comments`, { text: "hello" });
    expect(res.statusCode).toBe(401);
    expect(await commentRows(w.permitId)).toHaveLength(0);
  });

  it("answers 404 for another company's permit and for a client-user's invisible permit, writing nothing", async () => {
    expect((await w.admin.post(`/api/permits/${w.foreignPermitId}/comments`, { text: "x" })).statusCode).toBe(
      404,
    );
    expect(
      (await w.clientUser.post(`/api/permits/${w.hiddenPermitId}/comments`, { text: "x" })).statusCode,
    ).toBe(404);
    expect(await commentRows(w.foreignPermitId)).toHaveLength(0);
    expect(await commentRows(w.hiddenPermitId)).toHaveLength(0);
  });

  it("rejects empty, blank, missing and overlong text with field messages", async () => {
    for (const body of [
      { text: "" },
      { text: "   \n " },
      {},
      { text: "x".repeat(COMMENT_MAX_LENGTH + 1) },
      { text: 5 },
    ]) {
      const res = await w.user.post(`/api/permits/${w.permitId}/comments`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields.text).toBeTruthy();
    }
    const badFlag = await w.user.post(`/api/permits/${w.permitId}/comments`, {
      text: "ok",
      isInternal: "yes",
    });
    expect(badFlag.statusCode).toBe(400);
    expect(badFlag.json().fields.isInternal).toBeTruthy();
    expect(await commentRows(w.permitId)).toHaveLength(0);
    expect(await auditRows(w.permitId)).toHaveLength(0);
  });

  it("lets a company-user add an internal and a visible comment, trimmed, with an audit entry each", async () => {
    const internal = await w.user.post(`/api/permits/${w.permitId}/comments`, {
      text: "  Fee invoice is late.  ",
      isInternal: true,
    });
    expect(internal.statusCode).toBe(201);
    expect(internal.json().comment).toMatchObject({
      text: "Fee invoice is late.",
      isInternal: true,
      userName,
    });
    const visible = await w.user.post(`/api/permits/${w.permitId}/comments`, { text: "Inspection passed." });
    expect(visible.statusCode).toBe(201);
    expect(visible.json().comment.isInternal).toBe(false);

    const audit = await auditRows(w.permitId);
    expect(audit.map((a) => [a.action, a.field, a.newValue, a.userName]).sort()).toEqual([
      ["comment", "comment", "Inspection passed.", userName],
      ["comment", "internal comment", "Fee invoice is late.", userName],
    ]);
  });

  it("never lets a client-user write an internal comment", async () => {
    const res = await w.clientUser.post(`/api/permits/${w.permitId}/comments`, {
      text: "When is the inspection?",
      isInternal: true,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().comment.isInternal).toBe(false);
    const [row] = await t.db.select().from(comments).where(eq(comments.id, res.json().comment.id));
    expect(row!.isInternal).toBe(false);
  });

  it("lets a company-admin and a super-admin comment", async () => {
    expect(
      (await w.admin.post(`/api/permits/${w.permitId}/comments`, { text: "Admin note", isInternal: true }))
        .statusCode,
    ).toBe(201);
    expect(
      (await w.superAdmin.post(`/api/permits/${w.foreignPermitId}/comments`, { text: "Platform note" }))
        .statusCode,
    ).toBe(201);
  });

  it("writes neither the comment nor its audit entry when the audit write fails", async () => {
    await t.database.exec(`
      create function fail_audit() returns trigger language plpgsql as $$ begin raise exception 'injected'; end $$;
      create trigger fail_audit before insert on permit_audit for each row execute function fail_audit();`);
    try {
      const before = (await commentRows(w.permitId)).length;
      const res = await w.user.post(`/api/permits/${w.permitId}/comments`, { text: "Should not stay" });
      expect(res.statusCode).toBe(500);
      expect(await commentRows(w.permitId)).toHaveLength(before);
    } finally {
      await t.database.exec("drop trigger fail_audit on permit_audit; drop function fail_audit();");
    }
  });
});

describe("reading comments by role", () => {
  it("gives staff every comment, oldest first", async () => {
    for (const api of [w.user, w.admin]) {
      const res = await api.get(`/api/permits/${w.permitId}/comments`);
      expect(res.statusCode).toBe(200);
      const list = res.json().comments as { text: string; createdAt: string }[];
      expect(list.map((c) => c.text)).toEqual([
        "Fee invoice is late.",
        "Inspection passed.",
        "When is the inspection?",
        "Admin note",
      ]);
      const times = list.map((c) => c.createdAt);
      expect([...times].sort()).toEqual(times);
    }
  });

  it("never gives a client-user an internal comment", async () => {
    const res = await w.clientUser.get(`/api/permits/${w.permitId}/comments`);
    expect(res.statusCode).toBe(200);
    expect(res.json().comments.map((c: { text: string }) => c.text)).toEqual([
      "Inspection passed.",
      "When is the inspection?",
    ]);
    expect(res.json().comments.every((c: { isInternal: boolean }) => !c.isInternal)).toBe(true);
  });

  it("lets a super-admin read any company's comments", async () => {
    const res = await w.superAdmin.get(`/api/permits/${w.foreignPermitId}/comments`);
    expect(res.json().comments.map((c: { text: string }) => c.text)).toEqual(["Platform note"]);
  });

  it("sends only the contract's fields", async () => {
    const res = await w.user.get(`/api/permits/${w.permitId}/comments`);
    expect(Object.keys(res.json().comments[0]).sort()).toEqual([
      "createdAt",
      "id",
      "isInternal",
      "text",
      "userName",
    ]);
  });
});
