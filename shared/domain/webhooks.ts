// Webhooks (issue 30, items 3 and 4): what a company's endpoints may hear of, and the retry
// schedule every delivery follows. Shared so the Admin page's 'Events' and the server agree.

export const WEBHOOK_EVENTS = [
  "permit.created",
  "permit.updated",
  "permit.expiring",
  "permit.expired",
  "permit.renewed",
  "permit.extended",
  "permit.closed",
  "bond.ledger_entry_added",
  "bond.released",
  "request.submitted",
  "request.approved",
  "request.rejected",
  "task.overdue",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** 'Send Test Event': to one endpoint, never subscribed to, never in the catalogue's choices. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

/** The 'Events' choices' words, in the catalogue's order. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  "permit.created": "Permit created",
  "permit.updated": "Permit updated",
  "permit.expiring": "Permit expiring",
  "permit.expired": "Permit expired",
  "permit.renewed": "Permit renewed",
  "permit.extended": "Permit extended",
  "permit.closed": "Permit closed",
  "bond.ledger_entry_added": "Bond ledger entry added",
  "bond.released": "Bond released",
  "request.submitted": "Request submitted",
  "request.approved": "Request approved",
  "request.rejected": "Request rejected",
  "task.overdue": "Task overdue",
};

/** How an endpoint is spoken to: signed JSON (Standard Webhooks), or a chat card. */
export const WEBHOOK_FORMATS = ["standard", "slack", "teams"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
export const WEBHOOK_FORMAT_LABELS: Record<WebhookFormat, string> = {
  standard: "Standard Webhooks (signed JSON)",
  slack: "Slack incoming webhook",
  teams: "Microsoft Teams Workflows",
};

/** The format a URL most likely wants: the form's default once a URL is typed. */
export function guessWebhookFormat(url: string): WebhookFormat {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return "standard";
  }
  if (host === "hooks.slack.com" || host.endsWith(".hooks.slack.com")) return "slack";
  if (
    host.endsWith(".logic.azure.com") ||
    host.endsWith(".webhook.office.com") ||
    host.endsWith(".environment.api.powerplatform.com")
  ) {
    return "teams";
  }
  return "standard";
}

/**
 * The waits after the 1st..6th failed attempt (5 s, 5 min, 30 min, 2 h, 5 h, 10 h): seven
 * attempts over about 17.5 hours, then the delivery is 'failed' (a 'Resend' starts it again).
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/** An endpoint whose every delivery failed for this long, at least WEBHOOK_DISABLE_MIN_FAILURES times, is disabled. */
export const WEBHOOK_DISABLE_AFTER_MS = 24 * 3_600_000;
export const WEBHOOK_DISABLE_MIN_FAILURES = 10;
/** Each attempt's limit: connecting, sending and the answer's first bytes. */
export const WEBHOOK_TIMEOUT_MS = 5_000;
/** What the delivery log keeps of an answer. */
export const WEBHOOK_RESPONSE_EXCERPT_MAX = 500;
