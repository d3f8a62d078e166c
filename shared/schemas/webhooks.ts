import { z } from "zod";
import { WEBHOOK_EVENTS, WEBHOOK_FORMATS, WEBHOOK_TEST_EVENT } from "../domain/webhooks.ts";
import { optionalId, requiredText } from "./fields.ts";

// Webhooks (issue 30, items 3 and 4): the Admin area 'Webhooks'. An endpoint's signing secret
// (whsec_...) is answered once, by the create.

export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_URL_MESSAGE = "URL must be a web address starting with https:// or http://";
export const WEBHOOK_URL_CREDENTIALS = "URL must not carry a user name or password";
export const WEBHOOK_EVENTS_MESSAGE = "Choose at least one event";
/** The server's answer when the URL's host resolves to a loopback, private or link-local address. */
export const WEBHOOK_PRIVATE_MESSAGE =
  "URL must reach a public address: loopback, private and link-local addresses are refused";
export const WEBHOOK_UNRESOLVED_MESSAGE = "URL's host could not be found";
export const WEBHOOK_STATUSES = ["enabled", "disabled"] as const;

const webhookUrl = () =>
  requiredText("URL", WEBHOOK_URL_MAX).superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: WEBHOOK_URL_MESSAGE });
      return;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      ctx.addIssue({ code: "custom", message: WEBHOOK_URL_MESSAGE });
    } else if (url.username || url.password) {
      ctx.addIssue({ code: "custom", message: WEBHOOK_URL_CREDENTIALS });
    }
  });

const eventList = () =>
  z
    .array(z.enum(WEBHOOK_EVENTS, { message: "Unknown event" }))
    .min(1, WEBHOOK_EVENTS_MESSAGE)
    .max(WEBHOOK_EVENTS.length)
    .transform((events) => [...new Set(events)]);

export const WebhookListQuerySchema = z.object({
  /** A super-admin names the company; everyone else sees their own. */
  company_id: optionalId(),
});

/** POST /api/webhooks ('Add Webhook'). events null (or left out): every event, those added later too. */
export const WebhookInputSchema = z.object({
  /** Super-admin only, and required for them. */
  company_id: optionalId(),
  url: webhookUrl(),
  format: z
    .enum(WEBHOOK_FORMATS, { message: "Format must be Standard Webhooks, Slack or Microsoft Teams" })
    .default("standard"),
  events: eventList().nullable().optional().default(null),
});
export type WebhookInput = z.output<typeof WebhookInputSchema>;
export type WebhookFormValues = z.input<typeof WebhookInputSchema>;

/** PATCH /api/webhooks/:id: what is sent changes; enabling again clears the failures. */
export const WebhookPatchSchema = z
  .object({
    url: webhookUrl().optional(),
    format: z.enum(WEBHOOK_FORMATS).optional(),
    events: eventList().nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "Nothing to change" });
export type WebhookPatch = z.output<typeof WebhookPatchSchema>;

export const WebhookLastDeliverySchema = z.object({
  status: z.enum(["pending", "sending", "delivered", "failed"]),
  event_type: z.string(),
  at: z.string(),
  status_code: z.number().int().nullable(),
});

export const WebhookSchema = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  url: z.string(),
  format: z.enum(WEBHOOK_FORMATS),
  /** null: every event. */
  events: z.array(z.string()).nullable(),
  /** The secret's first characters ("whsec_AbCd"). */
  secret_prefix: z.string(),
  status: z.enum(WEBHOOK_STATUSES),
  disabled_at: z.string().nullable(),
  disabled_reason: z.string().nullable(),
  failing_since: z.string().nullable(),
  consecutive_failures: z.number().int(),
  last_success_at: z.string().nullable(),
  created_at: z.string(),
  created_by_name: z.string(),
  last_delivery: WebhookLastDeliverySchema.nullable(),
  can: z.object({ edit: z.boolean(), delete: z.boolean() }),
});
export type Webhook = z.infer<typeof WebhookSchema>;

export const WebhookListSchema = z.object({
  webhooks: z.array(WebhookSchema),
  can: z.object({ create: z.boolean() }),
});
export type WebhookList = z.infer<typeof WebhookListSchema>;

/** The create's answer: the signing secret itself, this once. */
export const WebhookCreatedSchema = z.object({ webhook: WebhookSchema, secret: z.string() });
export type WebhookCreated = z.infer<typeof WebhookCreatedSchema>;
export const WebhookResponseSchema = z.object({ webhook: WebhookSchema });

/** One HTTP attempt: a line of the delivery log. */
export const WebhookAttemptSchema = z.object({
  attempted_at: z.string(),
  /** null: no answer (`error` says why: refused, timed out, unreachable). */
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  response_excerpt: z.string().nullable(),
  error: z.string().nullable(),
  manual: z.boolean(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

export const WebhookDeliverySchema = z.object({
  id: z.uuid(),
  /** webhook-id: the same on every attempt and on 'Resend'. */
  message_id: z.string(),
  event_type: z.union([z.enum(WEBHOOK_EVENTS), z.literal(WEBHOOK_TEST_EVENT)]),
  occurred_at: z.string(),
  /** What it is about, in words ("Permit B-2041 Main St grading"), when it is about a permit. */
  subject: z.string().nullable(),
  status: z.enum(["pending", "sending", "delivered", "failed"]),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  /** Newest first. */
  attempt_log: z.array(WebhookAttemptSchema),
  can: z.object({ resend: z.boolean() }),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveriesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const WEBHOOK_DELIVERIES_PAGE_SIZE = 25;

export const WebhookDeliveryListSchema = z.object({
  webhook: WebhookSchema,
  deliveries: z.array(WebhookDeliverySchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;

export const WebhookDeliveryResponseSchema = z.object({ delivery: WebhookDeliverySchema });
export type WebhookDeliveryResponse = z.infer<typeof WebhookDeliveryResponseSchema>;

export const WebhookDeliveryParamsSchema = z.object({ id: z.uuid(), deliveryId: z.uuid() });
