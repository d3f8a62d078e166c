import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { emitWebhookEvents } from "./emit.ts";

/*
 * Issue 30, item 3: the outbox. An event is recorded with one delivery per endpoint that hears it,
 * in the caller's transaction; nothing at all without such an endpoint; a dedupe key once.
 */

const t = useTestContext();
const w = useWorld(t, { permits: true });

const endpoint = (over: Partial<typeof webhookEndpoints.$inferInsert> = {}) =>
  t.db
    .insert(webhookEndpoints)
    .values({
      companyId: w.companyId,
      url: "https://example.com/hook",
      secretSealed: "x",
      secretPrefix: "whsec_x",
      ...over,
    })
    .returning()
    .then((r) => r[0]!);

describe("emitWebhookEvents", () => {
  it("writes nothing while no enabled endpoint hears the event", async () => {
    await endpoint({ enabled: false });
    await endpoint({ events: ["permit.closed"] });
    expect(await emitWebhookEvents(t.db, w.companyId, "permit.updated", [{ permitId: w.permitId }])).toBe(0);
    const events = await t.db.select().from(webhookEvents).where(eq(webhookEvents.companyId, w.companyId));
    expect(events).toHaveLength(0);
  });

  it("records the event with the permit's data and a delivery per listening endpoint, each its own webhook-id", async () => {
    const a = await endpoint();
    const b = await endpoint({ events: ["permit.updated", "permit.created"] });
    const n = await emitWebhookEvents(t.db, w.companyId, "permit.updated", [
      { permitId: w.permitId, extra: { changed: ["status"] } },
    ]);
    expect(n).toBe(2);
    const [event] = await t.db.select().from(webhookEvents).where(eq(webhookEvents.companyId, w.companyId));
    expect(event).toMatchObject({
      type: "permit.updated",
      data: { changed: ["status"], permit: { id: w.permitId } },
    });
    const deliveries = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, event!.id));
    expect(deliveries.map((d) => d.endpointId).sort()).toEqual([a.id, b.id].sort());
    for (const d of deliveries) expect(d.messageId).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(new Set(deliveries.map((d) => d.messageId)).size).toBe(2);
  });

  it("records a keyed event once, and never another company's permit", async () => {
    const key = `permit.expired:${w.permitId}:2026-01-01`;
    expect(
      await emitWebhookEvents(t.db, w.companyId, "permit.expired", [
        { permitId: w.permitId, dedupeKey: key },
      ]),
    ).toBe(1); // endpoint a only: b hears created and updated
    expect(
      await emitWebhookEvents(t.db, w.companyId, "permit.expired", [
        { permitId: w.permitId, dedupeKey: key },
      ]),
    ).toBe(0);
    expect(
      await emitWebhookEvents(t.db, w.companyId, "permit.expired", [{ permitId: w.foreignPermitId }]),
    ).toBe(0);
  });
});
