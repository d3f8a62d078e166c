import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, webhookEndpoints } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { WEBHOOK_PRIVATE_MESSAGE, WEBHOOK_URL_MESSAGE } from "../../../shared/schemas/webhooks.ts";
import { isPrivateAddress } from "./address-guard.ts";
import { postWebhook } from "./post.ts";

/*
 * Issue 30, item 3: Admin > Webhooks on a server that refuses private addresses (the default): the
 * admin routes (secret shown once, kept sealed, audited), who may use them, and the SSRF refusals
 * when saved and at the attempt itself.
 */

const t = useTestContext({ API_RATE_LIMIT: "100000" });
const w = useWorld(t, { permits: true, otherAdmin: true });

describe("Webhooks: the admin routes", () => {
  it("adds an endpoint whose secret is answered once and kept only sealed; lists it without the secret", async () => {
    // A public address literal: no DNS lookup needed, nothing is sent on save.
    const res = await w.admin.post("/api/webhooks", { url: "https://93.184.215.14/hooks/permitrack" });
    expect(res.statusCode, res.body).toBe(201);
    const { webhook, secret } = res.json();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(webhook).toMatchObject({
      url: "https://93.184.215.14/hooks/permitrack",
      format: "standard",
      events: null,
      status: "enabled",
      secret_prefix: secret.slice(0, 10),
      created_by_name: "Ada Admin",
      last_delivery: null,
      can: { edit: true, delete: true },
    });
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, webhook.id));
    expect(row!.secretSealed).not.toContain(secret.slice(6));
    expect(t.app.ctx.links.unseal("webhook-secret", row!.secretSealed)).toBe(secret);
    const list = await w.admin.get("/api/webhooks");
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).not.toContain(secret.slice(10));
    expect(list.json().webhooks.map((x: { id: string }) => x.id)).toContain(webhook.id);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, webhook.id));
    expect(event).toMatchObject({ action: "webhook.create", actorName: "Ada Admin" });
    expect(JSON.stringify(event!.details)).not.toContain(secret.slice(10));
    // The path (a Slack or Teams webhook's credential) is not kept in the audit trail.
    expect(event!.details).toMatchObject({ url: "https://93.184.215.14/…" });
  });

  it("keeps chosen events, edits, disables and enables again, and deletes", async () => {
    const made = await w.admin.post("/api/webhooks", {
      url: "https://93.184.215.14/slack",
      format: "slack",
      events: ["permit.expired", "permit.expiring", "permit.expired"],
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().webhook.id;
    expect(made.json().webhook.events).toEqual(["permit.expired", "permit.expiring"]);
    const off = await w.admin.patch(`/api/webhooks/${id}`, { enabled: false });
    expect(off.json().webhook).toMatchObject({
      status: "disabled",
      disabled_reason: "Disabled by Ada Admin",
    });
    const on = await w.admin.patch(`/api/webhooks/${id}`, { enabled: true, events: null, format: "teams" });
    expect(on.json().webhook).toMatchObject({
      status: "enabled",
      disabled_reason: null,
      events: null,
      format: "teams",
    });
    expect((await w.admin.delete(`/api/webhooks/${id}`)).statusCode).toBe(204);
    expect((await w.admin.get(`/api/webhooks/${id}/deliveries`)).statusCode).toBe(404);
  });

  it("answers bad input with field messages and changes nothing", async () => {
    const before = await t.db.select().from(webhookEndpoints);
    const cases: [unknown, string, string][] = [
      [{ url: "ftp://93.184.215.14/x" }, "url", WEBHOOK_URL_MESSAGE],
      [{ url: "not a url" }, "url", WEBHOOK_URL_MESSAGE],
      [{ url: "https://u:p@93.184.215.14/x" }, "url", "URL must not carry a user name or password"],
      [{ url: "https://93.184.215.14/x", events: [] }, "events", "Choose at least one event"],
      [{ url: "https://93.184.215.14/x", events: ["permit.deleted"] }, "events.0", "Unknown event"],
    ];
    for (const [body, field, message] of cases) {
      const res = await w.admin.post("/api/webhooks", body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().fields?.[field], res.body).toBe(message);
    }
    expect(await t.db.select().from(webhookEndpoints)).toHaveLength(before.length);
  });

  it("refuses URLs that reach loopback, private or link-local addresses", async () => {
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://localhost/hook",
      "http://10.1.2.3/hook",
      "http://172.16.0.5/hook",
      "http://192.168.1.1/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://[fd00::1]/hook",
      "http://0.0.0.0/hook",
    ]) {
      const res = await w.admin.post("/api/webhooks", { url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().fields.url).toBe(WEBHOOK_PRIVATE_MESSAGE);
    }
    const made = await w.admin.post("/api/webhooks", { url: "https://93.184.215.14/x" });
    const moved = await w.admin.patch(`/api/webhooks/${made.json().webhook.id}`, {
      url: "http://127.0.0.1/x",
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().fields.url).toBe(WEBHOOK_PRIVATE_MESSAGE);
  });

  it("refuses a private address at the attempt too, before connecting", async () => {
    const outcome = await postWebhook({
      url: "http://localhost:9/hook",
      body: "{}",
      headers: {},
      allowPrivate: false,
    });
    expect(outcome).toMatchObject({ ok: false, statusCode: null });
    expect(outcome.error).toMatch(/private address: refused/);
    const literal = await postWebhook({
      url: "http://[::1]:9/hook",
      body: "{}",
      headers: {},
      allowPrivate: false,
    });
    expect(literal.error).toMatch(/private address: refused/);
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
    expect(isPrivateAddress("2606:4700:4700::1111")).toBe(false);
    expect(isPrivateAddress("100.64.0.1")).toBe(true);
    expect(isPrivateAddress("fe80::1")).toBe(true);
  });

  it("is the company admins' alone: a user or client-user 403, another company's endpoint 404", async () => {
    const made = await w.admin.post("/api/webhooks", { url: "https://93.184.215.14/mine" });
    const id = made.json().webhook.id;
    for (const client of [w.user, w.clientUser]) {
      expect((await client.get("/api/webhooks")).statusCode).toBe(403);
      expect((await client.post("/api/webhooks", { url: "https://93.184.215.14/x" })).statusCode).toBe(403);
      expect((await client.patch(`/api/webhooks/${id}`, { enabled: false })).statusCode).toBe(403);
    }
    expect((await w.otherAdmin.patch(`/api/webhooks/${id}`, { enabled: false })).statusCode).toBe(404);
    expect((await w.otherAdmin.get(`/api/webhooks/${id}/deliveries`)).statusCode).toBe(404);
    expect((await w.otherAdmin.post(`/api/webhooks/${id}/test`)).statusCode).toBe(404);
    expect((await w.otherAdmin.delete(`/api/webhooks/${id}`)).statusCode).toBe(404);
    expect((await w.otherAdmin.get("/api/webhooks")).json().webhooks).toEqual([]);
    // A super-admin names the company.
    const su = await w.superAdmin.get(`/api/webhooks?company_id=${w.companyId}`);
    expect(su.json().webhooks.map((x: { id: string }) => x.id)).toContain(id);
  });
});
