import { and, eq, inArray, sql } from "drizzle-orm";
import { expect } from "vitest";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../db/schema.ts";
import type { TestContext } from "./harness.ts";

/**
 * Issue 30, item 3 (the events' tests): an endpoint row written straight to the table, and the
 * events recorded about a permit with their deliveries.
 */
export function webhookHelpers(t: TestContext) {
  /** An enabled endpoint of `companyId` that hears everything, unless told otherwise. */
  const endpoint = (companyId: string, over: Partial<typeof webhookEndpoints.$inferInsert> = {}) =>
    t.db
      .insert(webhookEndpoints)
      .values({
        companyId,
        url: "https://example.com/hook",
        secretSealed: "x",
        secretPrefix: "whsec_x",
        ...over,
      })
      .returning()
      .then((r) => r[0]!);

  /** The events about `permitId` (of `type`, when given), oldest first, each with its deliveries' endpoints. */
  async function eventsAbout(permitId: string, type?: string) {
    const events = await t.db
      .select()
      .from(webhookEvents)
      .where(
        and(
          sql`${webhookEvents.data} -> 'permit' ->> 'id' = ${permitId}`,
          type ? eq(webhookEvents.type, type) : undefined,
        ),
      )
      .orderBy(webhookEvents.occurredAt);
    const deliveries = events.length
      ? await t.db
          .select()
          .from(webhookDeliveries)
          .where(
            inArray(
              webhookDeliveries.eventId,
              events.map((e) => e.id),
            ),
          )
      : [];
    return events.map((e) => ({
      ...e,
      data: e.data as Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any
      endpoints: deliveries.filter((d) => d.eventId === e.id).map((d) => d.endpointId),
    }));
  }

  /** The one event of `type` about `permitId`, delivered to `endpointId` (and no other endpoint). */
  async function theEvent(permitId: string, type: string, endpointId: string) {
    const events = await eventsAbout(permitId, type);
    expect(events, `${type} about ${permitId}`).toHaveLength(1);
    expect(events[0]!.endpoints).toEqual([endpointId]);
    return events[0]!;
  }

  /** Nothing at all recorded for `companyId`. */
  async function nothingFor(companyId: string) {
    const events = await t.db.select().from(webhookEvents).where(eq(webhookEvents.companyId, companyId));
    expect(events).toHaveLength(0);
    const deliveries = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.companyId, companyId));
    expect(deliveries).toHaveLength(0);
  }

  return { endpoint, eventsAbout, theEvent, nothingFor };
}
