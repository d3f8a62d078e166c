import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENTS } from "../../../../shared/domain/webhooks.ts";
import {
  deliveryOutcome,
  deliveryStatusLabel,
  eventLabel,
  eventsForBody,
  eventsForForm,
  eventsSummary,
  formatDuration,
  lastDeliveryText,
} from "./webhook-text.ts";

const attempt = (status_code: number | null, error: string | null = null) => ({
  attempted_at: "2026-11-27T10:00:00.000Z",
  status_code,
  duration_ms: 120,
  response_excerpt: null,
  error,
  manual: false,
});

describe("the Webhooks page's words", () => {
  it("says which events an endpoint hears of", () => {
    expect(eventsSummary(null)).toEqual({ text: "All events", full: "All events" });
    expect(eventsSummary(["permit.updated", "permit.created"]).text).toBe("Permit created, Permit updated");
    const four = eventsSummary(["permit.created", "permit.updated", "bond.released", "task.overdue"]);
    expect(four.text).toBe("4 events");
    expect(four.full).toBe("Permit created, Permit updated, Bond released, Task overdue");
  });

  it("names the test event and the catalogue's events in words", () => {
    expect(eventLabel("webhook.test")).toBe("Test event");
    expect(eventLabel("bond.ledger_entry_added")).toBe("Bond ledger entry added");
  });

  it("sends events: null when every event is ticked, and ticks them all for null", () => {
    expect(eventsForForm(null)).toEqual([...WEBHOOK_EVENTS]);
    expect(eventsForBody([...WEBHOOK_EVENTS].reverse())).toBeNull();
    expect(eventsForBody(["task.overdue", "permit.created"])).toEqual(["permit.created", "task.overdue"]);
    expect(eventsForBody([])).toEqual([]);
    expect(eventsForForm(["task.overdue", "permit.created"])).toEqual(["permit.created", "task.overdue"]);
  });

  it("tells the outcome of a resend or a test event from the delivery and its newest attempt", () => {
    expect(deliveryOutcome({ status: "delivered", attempt_log: [attempt(200)] })).toEqual({
      message: "Delivered (200)",
      severity: "success",
    });
    expect(deliveryOutcome({ status: "pending", attempt_log: [attempt(500), attempt(200)] })).toEqual({
      message: "Delivery failed (500): retrying",
      severity: "warning",
    });
    expect(deliveryOutcome({ status: "failed", attempt_log: [attempt(null, "timed out")] })).toEqual({
      message: "Delivery failed (timed out)",
      severity: "error",
    });
    expect(deliveryOutcome({ status: "pending", attempt_log: [] }).message).toBe("Queued for delivery");
  });

  it("words statuses, durations and the last delivery", () => {
    expect(deliveryStatusLabel("pending")).toBe("Pending");
    expect(deliveryStatusLabel("pending", 2)).toBe("Retrying");
    expect(formatDuration(85)).toBe("85 ms");
    expect(formatDuration(1250)).toBe("1.3 s");
    expect(formatDuration(12_400)).toBe("12 s");
    expect(lastDeliveryText(null)).toBe("Never");
    expect(
      lastDeliveryText({ status: "delivered", event_type: "permit.updated", at: "x", status_code: 200 }),
    ).toBe("Delivered · 200");
    expect(
      lastDeliveryText({ status: "failed", event_type: "permit.updated", at: "x", status_code: null }),
    ).toBe("Failed");
  });
});
