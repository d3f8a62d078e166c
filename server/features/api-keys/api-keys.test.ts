import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { describe, expect, it } from "vitest";
import { apiKeys, auditEvents, comments, permitAudit } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";

/*
 * Issue 30, item 5: API keys. The admin screens' routes, and `Authorization: Bearer <key>` on the
 * API: the key's company and role, 401 for unknown, revoked and expired keys, 403 on what keys
 * never reach, writes audited as 'API key NAME'. (The whole matrix through a key is in
 * server/security/permission-matrix.test.ts; the rate limit and the log in api-keys-limits.test.ts.)
 */

const t = useTestContext({ API_RATE_LIMIT: "100000", API_KEY_RATE_LIMIT: "100000" });
const w = useWorld(t, { permits: true, otherAdmin: true });

/** A request with the key and nothing else: no cookie, no CSRF header. */
const withKey = (key: string, opts: InjectOptions) =>
  t.app.inject({ ...opts, headers: { authorization: `Bearer ${key}`, ...(opts.headers ?? {}) } });

let n = 0;
async function makeKey(role: "company-admin" | "company-user", over: Record<string, unknown> = {}) {
  const res = await w.admin.post("/api/api-keys", { name: `Key ${++n}`, role, ...over });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { key: string; api_key: { id: string; name: string; prefix: string } };
}

describe("API keys: the admin routes", () => {
  it("creates a key shown once, keeps only its SHA-256 and lists it without its value", async () => {
    const created = await w.admin.post("/api/api-keys", {
      name: "Accounting sync",
      role: "company-user",
      expires_on: "2099-12-31",
    });
    expect(created.statusCode, created.body).toBe(201);
    const { key, api_key } = created.json();
    expect(key).toMatch(/^ptk_[A-Za-z0-9_-]{43}$/);
    expect(api_key).toMatchObject({
      name: "Accounting sync",
      role: "company-user",
      prefix: key.slice(0, 12),
      expires_on: "2099-12-31",
      last_used_at: null,
      status: "active",
      created_by_name: "Ada Admin",
      can: { revoke: true },
    });
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, api_key.id));
    const hash = createHash("sha256").update(key).digest("hex");
    expect(row!.tokenHash).toBe(hash);
    expect(JSON.stringify(row)).not.toContain(key.slice(12));
    const list = await w.admin.get("/api/api-keys");
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(key.slice(12));
    expect(list.body).not.toContain(hash);
    expect(list.json().api_keys.map((k: { id: string }) => k.id)).toContain(api_key.id);
    // The audit event names the key, never its value.
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, api_key.id));
    expect(event).toMatchObject({ action: "api_key.create", actorName: "Ada Admin", companyId: w.companyId });
    expect(JSON.stringify(event)).not.toContain(key.slice(12));
  });

  it("is for admins: 403 for company-users and client-users; a super-admin names the company", async () => {
    for (const api of [w.user, w.clientUser]) {
      expect((await api.get("/api/api-keys")).statusCode).toBe(403);
      expect((await api.post("/api/api-keys", { name: "Nope", role: "company-user" })).statusCode).toBe(403);
    }
    const missing = await w.superAdmin.post("/api/api-keys", { name: "SA key", role: "company-admin" });
    expect(missing.statusCode).toBe(400);
    const made = await w.superAdmin.post("/api/api-keys", {
      name: "SA key",
      role: "company-admin",
      company_id: w.otherCompanyId,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().api_key.company_id).toBe(w.otherCompanyId);
    const listed = await w.superAdmin.get(`/api/api-keys?company_id=${w.otherCompanyId}`);
    expect(listed.json().api_keys.map((k: { name: string }) => k.name)).toEqual(["SA key"]);
    // Company A's admin neither lists nor revokes company B's key.
    const mine = (await w.admin.get("/api/api-keys")).json().api_keys as { id: string }[];
    expect(mine.map((k) => k.id)).not.toContain(made.json().api_key.id);
    expect((await w.admin.post(`/api/api-keys/${made.json().api_key.id}/revoke`)).statusCode).toBe(404);
  });

  it("answers 400 with field messages (never a super-admin key), 409 for a name taken, and changes nothing", async () => {
    const before = (await t.db.select().from(apiKeys)).length;
    const bad = await w.admin.post("/api/api-keys", {
      name: " ",
      role: "super-admin",
      expires_on: "2020-01-01",
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(["name", "role"]);
    expect(bad.json().fields.role).toBe("Role must be Company Admin or Company User");
    const past = await w.admin.post("/api/api-keys", {
      name: "Old",
      role: "company-user",
      expires_on: "2020-01-01",
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().fields).toEqual({ expires_on: "Expires must be today or later" });
    await makeKey("company-user", { name: "Twice" });
    const again = await w.admin.post("/api/api-keys", { name: "TWICE", role: "company-user" });
    expect(again.statusCode).toBe(409);
    expect((await t.db.select().from(apiKeys)).length).toBe(before + 1);
  });
});

describe("API keys: Authorization: Bearer", () => {
  it("reaches the JSON API as its role in its company, without CSRF header or cookie", async () => {
    const { key, api_key } = await makeKey("company-user");
    const list = await withKey(key, { method: "GET", url: "/api/permits" });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).toContain(w.permitId);
    expect(list.body).not.toContain(w.foreignPermitId);
    expect((await withKey(key, { method: "GET", url: `/api/permits/${w.permitId}` })).statusCode).toBe(200);
    // Company B's permit is not found, as for a session of company A.
    expect((await withKey(key, { method: "GET", url: `/api/permits/${w.foreignPermitId}` })).statusCode).toBe(
      404,
    );
    // A company-user key cannot do what a company-user cannot (add a client: admins).
    const client = await withKey(key, { method: "POST", url: "/api/clients", payload: { name: "By key" } });
    expect(client.statusCode).toBe(403);
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, api_key.id));
    expect(row!.lastUsedAt).not.toBeNull();
  });

  it("ignores the session cookie when a key is sent: the key's role decides", async () => {
    const { key } = await makeKey("company-user");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/clients",
      payload: { name: "Cookie and key" },
      headers: { authorization: `Bearer ${key}`, cookie: w.admin.cookie, "x-requested-with": "permitrack" },
    });
    expect(res.statusCode).toBe(403);
  });

  it("answers 401 with a clear message for unknown, revoked, expired and malformed keys", async () => {
    const unknown = await withKey(`ptk_${"A".repeat(43)}`, { method: "GET", url: "/api/permits" });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe("Unknown API key.");
    const malformed = await t.app.inject({
      method: "GET",
      url: "/api/permits",
      headers: { authorization: "Basic abc" },
    });
    expect(malformed.statusCode).toBe(401);
    expect(malformed.json().message).toMatch(/Authorization: Bearer/);

    const revoked = await makeKey("company-admin");
    expect((await withKey(revoked.key, { method: "GET", url: "/api/permits" })).statusCode).toBe(200);
    const r = await w.admin.post(`/api/api-keys/${revoked.api_key.id}/revoke`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().api_key).toMatchObject({ status: "revoked", can: { revoke: false } });
    const after = await withKey(revoked.key, { method: "GET", url: "/api/permits" });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe("This API key has been revoked.");
    expect((await w.admin.post(`/api/api-keys/${revoked.api_key.id}/revoke`)).statusCode).toBe(409);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, revoked.api_key.id), eq(auditEvents.action, "api_key.revoke")));
    expect(event).toBeDefined();

    const expired = await makeKey("company-admin", { expires_on: new Date().toISOString().slice(0, 10) });
    expect((await withKey(expired.key, { method: "GET", url: "/api/permits" })).statusCode).toBe(200);
    await t.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expired.api_key.id));
    const late = await withKey(expired.key, { method: "GET", url: "/api/permits" });
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe("This API key has expired.");
    const listed = (await w.admin.get("/api/api-keys")).json().api_keys;
    expect(listed.find((k: { id: string }) => k.id === expired.api_key.id).status).toBe("expired");
  });

  it("never reaches the keys', users', webhooks' or the signed-in person's routes (403)", async () => {
    const { key, api_key } = await makeKey("company-admin");
    const tries: InjectOptions[] = [
      { method: "GET", url: "/api/api-keys" },
      { method: "POST", url: "/api/api-keys", payload: { name: "Escalate", role: "company-admin" } },
      { method: "POST", url: `/api/api-keys/${api_key.id}/revoke` },
      { method: "GET", url: "/api/users" },
      { method: "POST", url: "/api/users", payload: { email: "x@example.com" } },
      { method: "GET", url: "/api/webhooks" },
      { method: "GET", url: "/api/me" },
      { method: "POST", url: "/api/me/password", payload: {} },
      { method: "GET", url: "/api/saved-views" },
      { method: "GET", url: "/api/impersonation/candidates" },
      { method: "GET", url: "/api/%61pi-keys" },
    ];
    for (const opts of tries) {
      const res = await withKey(key, opts);
      expect(res.statusCode, `${opts.method} ${opts.url}: ${res.body}`).toBe(403);
    }
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, api_key.id));
    expect(row!.revokedAt).toBeNull();
  });

  it("is in the OpenAPI document as a bearer security scheme", async () => {
    const doc = (await w.admin.get("/api/docs/json")).json();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual(expect.arrayContaining([{ apiKey: [] }]));
    // A key may read the docs too.
    const { key } = await makeKey("company-user");
    expect((await withKey(key, { method: "GET", url: "/api/docs/json" })).statusCode).toBe(200);
  });

  it("audits a write through a key as 'API key NAME'", async () => {
    const { key } = await makeKey("company-admin", { name: "ERP bridge" });
    const client = await withKey(key, {
      method: "POST",
      url: "/api/clients",
      payload: { name: "Made by key" },
    });
    expect(client.statusCode, client.body).toBe(201);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, "client"), eq(auditEvents.actorName, "API key ERP bridge")));
    expect(event).toMatchObject({ actorId: null, companyId: w.companyId });

    const comment = await withKey(key, {
      method: "POST",
      url: `/api/permits/${w.permitId}/comments`,
      payload: { text: "Posted by the ERP", isInternal: false },
    });
    expect(comment.statusCode, comment.body).toBe(201);
    const [c] = await t.db.select().from(comments).where(eq(comments.text, "Posted by the ERP"));
    expect(c).toMatchObject({ userId: null, userName: "API key ERP bridge" });
    const trail = await t.db
      .select()
      .from(permitAudit)
      .where(and(eq(permitAudit.permitId, w.permitId), eq(permitAudit.userName, "API key ERP bridge")));
    expect(trail.length).toBeGreaterThan(0);
    expect(trail[0]!.userId).toBeNull();
  });
});
