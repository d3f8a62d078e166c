import { and, eq, sql } from "drizzle-orm";
import { scopeOf, type Actor } from "../../access/actor.ts";
import { webhookCan } from "../../access/policies/webhook.ts";
import { recordEvent } from "../../audit/audit-writer.ts";
import type { LinkSigner } from "../../auth/link-signer.ts";
import type { Db } from "../../db/client.ts";
import { webhookDeliveries, webhookEndpoints } from "../../db/schema.ts";
import { notFound, validation } from "../../errors.ts";
import {
  WEBHOOK_PRIVATE_MESSAGE,
  WEBHOOK_UNRESOLVED_MESSAGE,
  type Webhook,
  type WebhookInput,
  type WebhookPatch,
} from "../../../shared/schemas/webhooks.ts";
import type { WebhookFormat } from "../../../shared/domain/webhooks.ts";
import { assertPublicHost, hostOf, PrivateAddressError } from "./address-guard.ts";
import { newWebhookSecret, SECRET_SEAL_PURPOSE } from "./signing.ts";

export type WebhookRow = typeof webhookEndpoints.$inferSelect;

/**
 * A URL as the audit trail keeps it: its origin, the path elided. A Slack or Teams webhook's path is
 * its credential (whoever has it may post to the channel); the endpoint's row keeps it, the audit
 * trail needs only which receiver it was.
 */
export const auditUrl = (url: string) => {
  const u = new URL(url);
  return u.pathname === "/" && !u.search ? u.origin : `${u.origin}/…`;
};

/** An endpoint of the actor's company (any company's for a super-admin), or 404. */
export async function findVisibleWebhook(db: Db, actor: Actor, id: string): Promise<WebhookRow> {
  const { companyId } = scopeOf(actor);
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(
      and(eq(webhookEndpoints.id, id), companyId ? eq(webhookEndpoints.companyId, companyId) : undefined),
    );
  if (!row) throw notFound("Webhook");
  return row;
}

/** The URL must reach a public address (unless allowed): a clear 400 at the field otherwise. */
export async function checkUrl(url: string, allowPrivate: boolean): Promise<void> {
  try {
    await assertPublicHost(hostOf(new URL(url)), allowPrivate);
  } catch (err) {
    if (err instanceof PrivateAddressError) throw validation({ url: WEBHOOK_PRIVATE_MESSAGE });
    throw validation({ url: WEBHOOK_UNRESOLVED_MESSAGE });
  }
}

type LastDelivery = { status: string; event_type: string; at: string; status_code: number | null } | null;

export function presentWebhook(actor: Actor, r: WebhookRow, last: LastDelivery = null): Webhook {
  return {
    id: r.id,
    company_id: r.companyId,
    url: r.url,
    format: r.format as WebhookFormat,
    events: r.events ?? null,
    secret_prefix: r.secretPrefix,
    status: r.enabled ? "enabled" : "disabled",
    disabled_at: r.disabledAt?.toISOString() ?? null,
    disabled_reason: r.disabledReason,
    failing_since: r.failingSince?.toISOString() ?? null,
    consecutive_failures: r.consecutiveFailures,
    last_success_at: r.lastSuccessAt?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
    created_by_name: r.createdByName,
    last_delivery: last
      ? { ...last, status: last.status as NonNullable<Webhook["last_delivery"]>["status"] }
      : null,
    can: webhookCan(actor, r),
  };
}

/** GET /api/webhooks: the company's endpoints, newest first, each with its last delivery: one statement. */
export async function listWebhooks(db: Db, actor: Actor, requested: string | null): Promise<Webhook[]> {
  const company = scopeOf(actor).companyId ?? requested;
  const rows = await db
    .select({
      endpoint: webhookEndpoints,
      last: sql<LastDelivery>`(
        select json_build_object('status', d.status, 'event_type', e.type,
                 'at', to_char(coalesce(d.delivered_at, d.claimed_at, d.created_at) at time zone 'UTC',
                               'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'status_code', d.last_status_code)
        from webhook_deliveries d join webhook_events e on e.id = d.event_id
        where d.endpoint_id = webhook_endpoints.id
        order by d.created_at desc, d.id desc limit 1)`,
    })
    .from(webhookEndpoints)
    .where(company ? eq(webhookEndpoints.companyId, company) : undefined)
    .orderBy(sql`${webhookEndpoints.createdAt} desc`, webhookEndpoints.id);
  return rows.map((r) => presentWebhook(actor, r.endpoint, r.last));
}

/** 'Add Webhook': the endpoint, its secret sealed; the secret answered this once. Audited (never the secret). */
export async function createWebhook(
  db: Db,
  links: LinkSigner,
  actor: Actor,
  companyId: string,
  input: WebhookInput,
  allowPrivate: boolean,
): Promise<{ row: WebhookRow; secret: string }> {
  await checkUrl(input.url, allowPrivate);
  const { secret, prefix } = newWebhookSecret();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        companyId,
        url: input.url,
        format: input.format,
        events: input.events,
        secretSealed: links.seal(SECRET_SEAL_PURPOSE, secret),
        secretPrefix: prefix,
        createdBy: actor.userId,
        createdByName: actor.name,
      })
      .returning();
    await recordEvent(tx, actor, {
      action: "webhook.create",
      entityType: "webhook",
      entityId: row!.id,
      companyId,
      details: { url: auditUrl(row!.url), format: row!.format, events: row!.events, secret_prefix: prefix },
    });
    return { row: row!, secret };
  });
}

/** Edit, enable or disable; enabling again clears the failure streak and the reason. Audited. */
export async function updateWebhook(
  db: Db,
  actor: Actor,
  endpoint: WebhookRow,
  patch: WebhookPatch,
  allowPrivate: boolean,
): Promise<WebhookRow> {
  if (patch.url !== undefined && patch.url !== endpoint.url) await checkUrl(patch.url, allowPrivate);
  const enabling = patch.enabled === true && !endpoint.enabled;
  const disabling = patch.enabled === false && endpoint.enabled;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.format !== undefined ? { format: patch.format } : {}),
        ...(patch.events !== undefined ? { events: patch.events } : {}),
        ...(enabling
          ? {
              enabled: true,
              disabledAt: null,
              disabledReason: null,
              failingSince: null,
              consecutiveFailures: 0,
            }
          : {}),
        ...(disabling
          ? { enabled: false, disabledAt: new Date(), disabledReason: `Disabled by ${actor.name}` }
          : {}),
      })
      .where(eq(webhookEndpoints.id, endpoint.id))
      .returning();
    if (!row) throw notFound("Webhook");
    await recordEvent(tx, actor, {
      action: "webhook.update",
      entityType: "webhook",
      entityId: row.id,
      companyId: row.companyId,
      details: { url: auditUrl(row.url), format: row.format, events: row.events, enabled: row.enabled },
    });
    return row;
  });
}

/** Delete: the endpoint, its deliveries and their log. Audited. */
export async function deleteWebhook(db: Db, actor: Actor, endpoint: WebhookRow): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    await recordEvent(tx, actor, {
      action: "webhook.delete",
      entityType: "webhook",
      entityId: endpoint.id,
      companyId: endpoint.companyId,
      details: { url: auditUrl(endpoint.url) },
    });
  });
}

/** A delivery of `endpoint`, or 404. */
export async function findDelivery(
  db: Db,
  endpoint: WebhookRow,
  deliveryId: string,
): Promise<{ id: string }> {
  const [row] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpoint.id)));
  if (!row) throw notFound("Delivery");
  return row;
}
