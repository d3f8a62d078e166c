import { LEDGER_KIND_LABELS, type LedgerKind } from "../../../shared/domain/bonds.ts";
import { formatAmountChange, formatDate } from "../../../shared/domain/format.ts";
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_TEST_EVENT,
  type WebhookEventType,
  type WebhookFormat,
} from "../../../shared/domain/webhooks.ts";

/**
 * What an attempt sends (issue 30, items 3 and 4): the Standard Webhooks JSON ({ type, timestamp,
 * data }), or the same event as a short chat message for a Slack incoming webhook or a Microsoft
 * Teams Workflows webhook: what happened, the permit or bond, its project, a link to it. The body
 * is made from the stored event alone, so every attempt of a delivery sends the same bytes.
 */

export interface StoredEvent {
  type: string;
  data: EventData;
  occurredAt: Date;
}

interface PermitData {
  id: string;
  kind: "permit" | "bond";
  number: string;
  name: string;
  status: string;
  expiration_date: string | null;
  project: { id: string; name: string; number: string | null } | null;
  client: { id: string; name: string } | null;
  [key: string]: unknown;
}

interface EventData {
  permit?: PermitData;
  days_left?: number;
  entry?: { kind: string; change: string; effective_date: string };
  request?: { document?: string | null };
  task?: { title: string; due_on: string };
  message?: string;
  [key: string]: unknown;
}

export const permitUrl = (publicUrl: string, permitId: string) => `${publicUrl}/permits/${permitId}`;

/** The Standard Webhooks body: the stored data, each permit given its address in the app. */
export function standardBody(event: StoredEvent, publicUrl: string): string {
  const data = event.data.permit
    ? { ...event.data, permit: { ...event.data.permit, url: permitUrl(publicUrl, event.data.permit.id) } }
    : event.data;
  return JSON.stringify({ type: event.type, timestamp: event.occurredAt.toISOString(), data });
}

/** "Permit expiring in 7 days", "Bond ledger entry added: Rider +25,000.00": the message's first line. */
export function headline(event: StoredEvent): string {
  const d = event.data;
  const kind = d.permit?.kind === "bond" ? "Bond" : "Permit";
  switch (event.type as WebhookEventType | typeof WEBHOOK_TEST_EVENT) {
    case WEBHOOK_TEST_EVENT:
      return "Test event from Permitrack";
    case "permit.expiring":
      return `${kind} expiring in ${d.days_left} day${d.days_left === 1 ? "" : "s"}`;
    case "permit.created":
    case "permit.updated":
    case "permit.expired":
    case "permit.renewed":
    case "permit.extended":
    case "permit.closed":
      return `${kind} ${WEBHOOK_EVENT_LABELS[event.type as WebhookEventType].slice("Permit ".length)}`;
    case "bond.ledger_entry_added": {
      const e = d.entry;
      const label = e ? (LEDGER_KIND_LABELS[e.kind as LedgerKind] ?? e.kind) : "";
      return e
        ? `Bond ledger entry added: ${label} ${formatAmountChange(e.change, null)}`
        : "Bond ledger entry added";
    }
    case "request.submitted":
    case "request.approved":
    case "request.rejected": {
      const label = WEBHOOK_EVENT_LABELS[event.type as WebhookEventType];
      return d.request?.document ? `${label}: ${d.request.document}` : label;
    }
    case "task.overdue":
      return d.task ? `Task overdue: ${d.task.title} (due ${formatDate(d.task.due_on)})` : "Task overdue";
    default:
      return WEBHOOK_EVENT_LABELS[event.type as WebhookEventType] ?? event.type;
  }
}

/** The facts under the headline: the permit or bond, its project and client, its expiry. */
function facts(event: StoredEvent): { title: string; value: string }[] {
  const p = event.data.permit;
  if (!p) return event.data.message ? [{ title: "Message", value: event.data.message }] : [];
  const out = [{ title: p.kind === "bond" ? "Bond" : "Permit", value: `${p.number} ${p.name}`.trim() }];
  if (p.project)
    out.push({
      title: "Project",
      value: p.project.number ? `${p.project.name} (${p.project.number})` : p.project.name,
    });
  if (p.client) out.push({ title: "Client", value: p.client.name });
  out.push({ title: "Status", value: p.status });
  if (p.expiration_date)
    out.push({ title: "Expires", value: formatDate(p.expiration_date) ?? p.expiration_date });
  return out;
}

/** Slack's mrkdwn: &, < and > escaped (https://api.slack.com/reference/surfaces/formatting). */
const slackEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function slackBody(event: StoredEvent, publicUrl: string): string {
  const title = headline(event);
  const p = event.data.permit;
  const lines = facts(event).map((f, i) =>
    i === 0 && p
      ? `*${f.title}:* <${permitUrl(publicUrl, p.id)}|${slackEscape(f.value)}>`
      : `*${f.title}:* ${slackEscape(f.value)}`,
  );
  return JSON.stringify({
    text: p ? `${title}: ${p.number} ${p.name}` : title,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${slackEscape(title)}*\n${lines.join("\n")}` } },
    ],
  });
}

/** A Teams Workflows webhook ("When a Teams webhook request is received"): one Adaptive Card. */
export function teamsBody(event: StoredEvent, publicUrl: string): string {
  const p = event.data.permit;
  return JSON.stringify({
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body: [
            { type: "TextBlock", text: headline(event), weight: "Bolder", size: "Medium", wrap: true },
            { type: "FactSet", facts: facts(event) },
          ],
          actions: p
            ? [
                {
                  type: "Action.OpenUrl",
                  title: p.kind === "bond" ? "Open bond" : "Open permit",
                  url: permitUrl(publicUrl, p.id),
                },
              ]
            : [],
        },
      },
    ],
  });
}

export function bodyFor(format: WebhookFormat, event: StoredEvent, publicUrl: string): string {
  if (format === "slack") return slackBody(event, publicUrl);
  if (format === "teams") return teamsBody(event, publicUrl);
  return standardBody(event, publicUrl);
}

/** "Permit B-2041 Main St grading": the delivery log's Subject. */
export function subjectOf(data: EventData): string | null {
  const p = data.permit;
  return p ? `${p.kind === "bond" ? "Bond" : "Permit"} ${p.number} ${p.name}`.trim() : null;
}
