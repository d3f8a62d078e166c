import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_TEST_EVENT,
  type WebhookEventType,
  type WebhookFormat,
} from "../../../../shared/domain/webhooks.ts";
import type { NotifySeverity } from "../../../lib/notify.ts";
import type { Webhook, WebhookAttempt, WebhookDelivery } from "../../../../shared/schemas/webhooks.ts";

// The Webhooks page's words (issue 30, items 3 and 4): what an endpoint listens to, how a delivery
// went, and the form's values to the API's body. Pure, so the unit test reads them.

/** The table's short names of a format (the form's select gives WEBHOOK_FORMAT_LABELS in full). */
export const FORMAT_SHORT_LABELS: Record<WebhookFormat, string> = {
  standard: "Standard Webhooks",
  slack: "Slack",
  teams: "Microsoft Teams",
};

/** An event's words: the catalogue's label, "Test event" for 'Send Test Event'. */
export function eventLabel(type: string): string {
  if (type === WEBHOOK_TEST_EVENT) return "Test event";
  return WEBHOOK_EVENT_LABELS[type as WebhookEventType] ?? type;
}

/**
 * What an endpoint hears of: "All events" (null: those added later too), the labels of up to
 * three, else their count ("5 events") with every label in `full`.
 */
export function eventsSummary(events: readonly string[] | null): { text: string; full: string } {
  if (events === null) return { text: "All events", full: "All events" };
  const labels = WEBHOOK_EVENTS.filter((e) => events.includes(e)).map(eventLabel);
  const full = labels.join(", ");
  return { text: labels.length <= 3 ? full : `${labels.length} events`, full };
}

/** The form's ticks: every event when it hears of all. */
export const eventsForForm = (events: readonly string[] | null): WebhookEventType[] =>
  events === null ? [...WEBHOOK_EVENTS] : WEBHOOK_EVENTS.filter((e) => events.includes(e));

/** The body's `events`: null when every event is ticked (so events added later are sent too). */
export const eventsForBody = (ticked: readonly string[]): WebhookEventType[] | null =>
  WEBHOOK_EVENTS.every((e) => ticked.includes(e)) ? null : WEBHOOK_EVENTS.filter((e) => ticked.includes(e));

type DeliveryStatus = WebhookDelivery["status"];

/** A delivery's status in words; a pending one that has failed before is 'Retrying'. */
export function deliveryStatusLabel(status: DeliveryStatus, attempts = 0): string {
  if (status === "pending" && attempts > 0) return "Retrying";
  return { pending: "Pending", sending: "Sending", delivered: "Delivered", failed: "Failed" }[status];
}

export const deliveryStatusColor = (status: DeliveryStatus) =>
  status === "delivered" ? "success" : status === "failed" ? "error" : "default";

/** An attempt's answer in brief: its HTTP status code, else why there was none ("timed out"). */
export function attemptResult(attempt: Pick<WebhookAttempt, "status_code" | "error"> | undefined): string {
  if (!attempt) return "no attempt yet";
  if (attempt.status_code !== null) return String(attempt.status_code);
  return attempt.error ?? "no answer";
}

/**
 * The toast after 'Resend' or 'Send Test Event' (both answer once the attempt was made): "Delivered
 * (200)", "Delivery failed (500): retrying", "Delivery failed (timed out)".
 */
export function deliveryOutcome(delivery: Pick<WebhookDelivery, "status" | "attempt_log">): {
  message: string;
  severity: NotifySeverity;
} {
  const last = delivery.attempt_log[0];
  if (delivery.status === "delivered")
    return { message: `Delivered (${attemptResult(last)})`, severity: "success" };
  if (!last) return { message: "Queued for delivery", severity: "info" };
  const failed = `Delivery failed (${attemptResult(last)})`;
  return delivery.status === "failed"
    ? { message: failed, severity: "error" }
    : { message: `${failed}: retrying`, severity: "warning" };
}

/** How long an attempt took: "85 ms", "1.2 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** The list's Last Delivery: its status and code ("Delivered · 200"), or "Never". */
export function lastDeliveryText(last: Webhook["last_delivery"]): string {
  if (!last) return "Never";
  const status = deliveryStatusLabel(last.status);
  return last.status_code === null ? status : `${status} · ${last.status_code}`;
}
