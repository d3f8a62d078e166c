import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from "../../../shared/domain/webhooks.ts";
import { users, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { startTestSmtp, type TestSmtp } from "../../test-support/test-smtp.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../test-support/webhook-receiver.ts";
import { useWorld } from "../../test-support/world.ts";
import { claimDue, LEASE_MS, sendDueWebhooks } from "./dispatcher.ts";
import { emitWebhookEvents } from "./emit.ts";
import { postWebhook } from "./post.ts";
import { dispatchContext } from "./worker.ts";

/*
 * Issue 30, item 3: deliveries to a real HTTP receiver on 127.0.0.1 (WEBHOOKS_ALLOW_PRIVATE=true):
 * signed by the Standard Webhooks scheme and verified with the `standardwebhooks` package; retried
 * on the schedule with one webhook-id; resent by hand with it; no redirect followed; a 5 s limit; a
 * claim left by a dead process taken again; an endpoint failing for 24 hours disabled and its
 * admins e-mailed (a real SMTP server).
 */

let smtp: TestSmtp;
let hook: WebhookReceiver;
beforeAll(async () => {
  smtp = await startTestSmtp();
  hook = await startWebhookReceiver();
});
afterAll(async () => {
  await hook?.close();
  await smtp?.close();
});
const t = useTestContext(() => ({
  WEBHOOKS_ALLOW_PRIVATE: "true",
  SMTP_URL: smtp.url,
  API_RATE_LIMIT: "100000",
}));
const w = useWorld(t, { permits: true });
const ctx = () => dispatchContext(t.app);
const send = () => sendDueWebhooks(ctx());

afterEach(async () => {
  await t.db.delete(webhookEndpoints);
  hook.received.length = 0;
  hook.answerAll({ status: 200, body: "ok" });
  smtp.messages.length = 0;
});

async function addEndpoint(body: Record<string, unknown> = {}) {
  const res = await w.admin.post("/api/webhooks", { url: hook.url(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { webhook: { id: string }; secret: string };
}

/**
 * Makes every pending delivery due (the schedule's waits, without waiting): a second ago, as the
 * claim compares with the process's clock in milliseconds and PostgreSQL's now() has microseconds.
 */
const dueNow = () =>
  t.db.execute(
    sql`update webhook_deliveries set next_attempt_at = now() - interval '1 second' where status = 'pending'`,
  );

describe("Webhook deliveries", () => {
  it("sends a signed Standard Webhooks request that the standardwebhooks package verifies", async () => {
    const { secret } = await addEndpoint();
    await emitWebhookEvents(t.db, w.companyId, "permit.updated", [
      { permitId: w.permitId, extra: { changed: ["agency"] } },
    ]);
    expect(await send()).toEqual({ delivered: 1, retrying: 0, failed: 0 });
    const [got] = await hook.waitFor(1);
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(got!.headers["webhook-id"]).toMatch(/^msg_[0-9a-f]{32}$/);
    const payload = new Webhook(secret).verify(got!.body, got!.headers) as {
      type: string;
      timestamp: string;
      data: { changed: string[]; permit: { id: string; url: string; project: unknown } };
    };
    expect(payload.type).toBe("permit.updated");
    expect(payload.data.changed).toEqual(["agency"]);
    expect(payload.data.permit).toMatchObject({
      id: w.permitId,
      url: `http://localhost:3000/permits/${w.permitId}`,
    });
    // A tampered body or another secret fails verification.
    expect(() => new Webhook(secret).verify(got!.body.replace("agency", "status"), got!.headers)).toThrow();
    expect(() =>
      new Webhook("whsec_" + Buffer.alloc(24, 7).toString("base64")).verify(got!.body, got!.headers),
    ).toThrow();
  });

  it("retries a failing receiver with the same webhook-id: 500, 500, then 200 makes three attempts", async () => {
    const { webhook, secret } = await addEndpoint();
    hook.answerNext({ status: 500, body: "boom" }, { status: 500, body: "boom again" });
    await emitWebhookEvents(t.db, w.companyId, "permit.closed", [{ permitId: w.permitId }]);
    expect(await send()).toMatchObject({ retrying: 1 });
    const [first] = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, webhook.id));
    // The first wait is 5 seconds.
    expect(first!.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(WEBHOOK_RETRY_DELAYS_MS[0] - 1500);
    expect(await send()).toEqual({ delivered: 0, retrying: 0, failed: 0 }); // not due yet
    await dueNow();
    expect(await send()).toMatchObject({ retrying: 1 });
    const [second] = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, webhook.id));
    expect(second!.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(WEBHOOK_RETRY_DELAYS_MS[1] - 5000);
    await dueNow();
    expect(await send()).toMatchObject({ delivered: 1 });
    const got = await hook.waitFor(3);
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    for (const r of got) new Webhook(secret).verify(r.body, r.headers);
    // The log: three attempts, newest first, with codes, durations and the answers' excerpts.
    const log = await w.admin.get(`/api/webhooks/${webhook.id}/deliveries`);
    expect(log.statusCode, log.body).toBe(200);
    const [delivery] = log.json().deliveries;
    expect(delivery).toMatchObject({ event_type: "permit.closed", status: "delivered", attempts: 3 });
    expect(delivery.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([200, 500, 500]);
    expect(delivery.attempt_log[2]).toMatchObject({
      response_excerpt: "boom",
      error: "The receiver answered 500",
    });
    expect(delivery.subject).toMatch(/^Permit /);
    const [endpoint] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, webhook.id));
    expect(endpoint).toMatchObject({ consecutiveFailures: 0, failingSince: null, enabled: true });
  });

  it("gives up after the last attempt, and 'Resend' sends it again with the same webhook-id", async () => {
    const { webhook } = await addEndpoint();
    hook.answerAll({ status: 503, body: "down" });
    await emitWebhookEvents(t.db, w.companyId, "permit.renewed", [{ permitId: w.permitId }]);
    for (let i = 0; i < WEBHOOK_MAX_ATTEMPTS; i++) {
      await dueNow();
      await send();
    }
    const [gaveUp] = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, webhook.id));
    expect(gaveUp).toMatchObject({ status: "failed", attempts: WEBHOOK_MAX_ATTEMPTS, lastStatusCode: 503 });
    await dueNow();
    expect(await send()).toEqual({ delivered: 0, retrying: 0, failed: 0 });
    hook.answerAll({ status: 204 });
    const resent = await w.admin.post(`/api/webhooks/${webhook.id}/deliveries/${gaveUp!.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().delivery).toMatchObject({ status: "delivered", attempts: 1 });
    expect(resent.json().delivery.attempt_log[0]).toMatchObject({ status_code: 204, manual: true });
    const ids = hook.received.map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(WEBHOOK_MAX_ATTEMPTS + 1);
    expect(new Set(ids).size).toBe(1);
  });

  it("'Send Test Event' posts a webhook.test event now and answers with the attempt", async () => {
    const { webhook, secret } = await addEndpoint();
    const res = await w.admin.post(`/api/webhooks/${webhook.id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().delivery).toMatchObject({
      event_type: "webhook.test",
      status: "delivered",
      subject: null,
    });
    const [got] = await hook.waitFor(1);
    expect(new Webhook(secret).verify(got!.body, got!.headers)).toMatchObject({
      type: "webhook.test",
      data: { test: true, message: "A test event sent by Ada Admin from the Webhooks page" },
    });
  });

  it("never follows a redirect", async () => {
    const target = await startWebhookReceiver();
    try {
      hook.answerNext({ status: 307, headers: { location: target.url("/elsewhere") } });
      const outcome = await postWebhook({ url: hook.url(), body: "{}", headers: {}, allowPrivate: true });
      expect(outcome).toMatchObject({ ok: false, statusCode: 307 });
      expect(outcome.error).toMatch(/redirects are not followed/);
      expect(target.received).toHaveLength(0);
    } finally {
      await target.close();
    }
  });

  it("gives a receiver 5 seconds, then records the attempt as timed out", async () => {
    hook.answerNext("hang");
    const outcome = await postWebhook({ url: hook.url(), body: "{}", headers: {}, allowPrivate: true });
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "No answer within 5 s" });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(4900);
    expect(outcome.durationMs).toBeLessThan(7000);
  }, 15_000);

  it("takes over a claim left by a process that died, with the same webhook-id", async () => {
    const { webhook } = await addEndpoint();
    await emitWebhookEvents(t.db, w.companyId, "permit.created", [{ permitId: w.permitId }]);
    // A process claims the delivery and dies before sending it.
    const [claimed] = await claimDue(t.db, new Date());
    expect(claimed).toBeDefined();
    expect(await send()).toEqual({ delivered: 0, retrying: 0, failed: 0 }); // held within the lease
    const past = new Date(Date.now() - LEASE_MS - 1000);
    await t.db
      .update(webhookDeliveries)
      .set({ claimedAt: past })
      .where(eq(webhookDeliveries.id, claimed!.id));
    expect(await send()).toMatchObject({ delivered: 1 });
    const [got] = await hook.waitFor(1);
    expect(got!.headers["webhook-id"]).toBe(claimed!.messageId);
    const [row] = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, webhook.id));
    expect(row).toMatchObject({ status: "delivered", attempts: 2 });
  });

  it("disables an endpoint that failed every delivery for 24 hours (10 times or more) and e-mails the admins", async () => {
    const { webhook } = await addEndpoint();
    hook.answerAll({ status: 500, body: "still down" });
    // Nine failures in a row since yesterday, then this one.
    await t.db
      .update(webhookEndpoints)
      .set({ consecutiveFailures: 9, failingSince: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(webhookEndpoints.id, webhook.id));
    await emitWebhookEvents(t.db, w.companyId, "permit.expired", [{ permitId: w.permitId }]);
    await send();
    const [endpoint] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, webhook.id));
    expect(endpoint).toMatchObject({ enabled: false, consecutiveFailures: 10 });
    expect(endpoint!.disabledReason).toMatch(/Every delivery failed for 24 hours/);
    const mails = smtp.messages.filter((m) => m.subject === `Webhook disabled: ${hook.url()}`);
    const [admin] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, w.adminId));
    expect(mails.flatMap((m) => m.to)).toContain(admin!.email);
    expect(mails[0]!.decoded).toContain("The last attempt: The receiver answered 500");
    // Disabled: nothing more is sent, its pending delivery kept.
    await dueNow();
    expect(await send()).toEqual({ delivered: 0, retrying: 0, failed: 0 });
    // Enabled again: the failures are cleared and the kept delivery goes out.
    hook.answerAll({ status: 200 });
    const on = await w.admin.patch(`/api/webhooks/${webhook.id}`, { enabled: true });
    expect(on.json().webhook).toMatchObject({
      status: "enabled",
      consecutive_failures: 0,
      disabled_reason: null,
    });
    await dueNow();
    expect(await send()).toMatchObject({ delivered: 1 });
  });

  it("does not disable before 24 hours, however many failures", async () => {
    const { webhook } = await addEndpoint();
    hook.answerAll({ status: 500 });
    await t.db
      .update(webhookEndpoints)
      .set({ consecutiveFailures: 50, failingSince: new Date(Date.now() - 23 * 3_600_000) })
      .where(eq(webhookEndpoints.id, webhook.id));
    await emitWebhookEvents(t.db, w.companyId, "permit.expired", [{ permitId: w.permitId }]);
    await send();
    const [endpoint] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, webhook.id));
    expect(endpoint).toMatchObject({ enabled: true, consecutiveFailures: 51 });
    expect(
      await t.db.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, webhook.id)),
    ).toHaveLength(1);
  });
});
