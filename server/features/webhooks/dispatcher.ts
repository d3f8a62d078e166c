import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { LinkSigner } from "../../auth/link-signer.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { retryThroughOutage } from "../../db/outage-retry.ts";
import type { Mailer } from "../../mail/mailer.ts";
import {
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_DISABLE_MIN_FAILURES,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
  type WebhookFormat,
} from "../../../shared/domain/webhooks.ts";
import { mailDisabledEndpoint } from "./disabled-mail.ts";
import { bodyFor, type StoredEvent } from "./format.ts";
import { postWebhook, type PostOutcome } from "./post.ts";
import { SECRET_SEAL_PURPOSE, signedHeaders } from "./signing.ts";

/*
 * Delivering webhooks (issue 30, item 3; decision 0035). Due deliveries are claimed like the
 * e-mail deliveries (FOR UPDATE SKIP LOCKED; 'sending' with claimed_at as the claim's token; a
 * lease after which a claim left by a dead process is taken again), so any number of servers share
 * the work and a killed one loses nothing: at least once, a copy only with the same webhook-id.
 * Each attempt is signed afresh (a new webhook-timestamp), logged (webhook_attempts), and settled in
 * one statement with the endpoint's failure count: 2xx delivered; otherwise retried on
 * WEBHOOK_RETRY_DELAYS_MS, 'failed' after the last; an endpoint failing every delivery for 24 hours
 * (at least 10 attempts) is disabled in that statement and its company's admins e-mailed.
 */

export const LEASE_MS = 2 * 60_000;
const BATCH = 20;

export interface DispatchContext {
  db: Db;
  links: LinkSigner;
  mailer: Mailer;
  publicUrl: string;
  allowPrivate: boolean;
  log: FastifyBaseLogger;
}

export interface DispatchReport {
  delivered: number;
  retrying: number;
  failed: number;
}

export interface Claimed {
  id: string;
  companyId: string;
  endpointId: string;
  messageId: string;
  attempts: number;
  claimedAt: Date;
  url: string;
  format: WebhookFormat;
  secretSealed: string;
  event: StoredEvent;
}

/** The columns a claim answers with (the delivery joined to its event and endpoint). */
const CLAIMED = sql`d.id, d.company_id, d.endpoint_id, d.message_id, d.attempts, d.claimed_at,
  w.url, w.format, w.secret_sealed, e.type, e.data, e.occurred_at`;

type ClaimedRow = {
  id: string;
  company_id: string;
  endpoint_id: string;
  message_id: string;
  attempts: number;
  claimed_at: Date | string;
  url: string;
  format: WebhookFormat;
  secret_sealed: string;
  type: string;
  data: StoredEvent["data"] | string;
  occurred_at: Date | string;
};

const toClaimed = (r: ClaimedRow): Claimed => ({
  id: r.id,
  companyId: r.company_id,
  endpointId: r.endpoint_id,
  messageId: r.message_id,
  attempts: Number(r.attempts),
  claimedAt: new Date(r.claimed_at),
  url: r.url,
  format: r.format,
  secretSealed: r.secret_sealed,
  event: {
    type: r.type,
    data: typeof r.data === "string" ? JSON.parse(r.data) : r.data,
    occurredAt: new Date(r.occurred_at),
  },
});

/**
 * Claims up to BATCH due deliveries of enabled endpoints, oldest due first. Due by `now` or by the
 * database's clock, whichever is later: a delivery recorded with the database's now() (microseconds)
 * is due at once, however the process's millisecond clock rounds.
 */
export async function claimDue(db: Db, now: Date): Promise<Claimed[]> {
  const at = now.toISOString();
  const rows = await queryRows<ClaimedRow>(
    db,
    sql`update webhook_deliveries d set status = 'sending', claimed_at = ${at}::timestamptz, attempts = d.attempts + 1
        from webhook_events e, webhook_endpoints w
        where d.id in (
          select q.id from webhook_deliveries q join webhook_endpoints qe on qe.id = q.endpoint_id and qe.enabled
          where (q.status = 'pending' and q.next_attempt_at <= greatest(${at}::timestamptz, now()))
             or (q.status = 'sending' and q.claimed_at < ${new Date(now.getTime() - LEASE_MS).toISOString()}::timestamptz)
          order by q.next_attempt_at, q.id
          limit ${BATCH}
          for update of q skip locked)
          and e.id = d.event_id and w.id = d.endpoint_id
        returning ${CLAIMED}`,
  );
  return rows.map(toClaimed);
}

/**
 * Claims one delivery now, whatever its schedule (a 'Resend', or a test event's first attempt):
 * its attempts start again from one. Null when another process holds it within its lease.
 */
export async function claimOne(db: Db, deliveryId: string, now: Date): Promise<Claimed | null> {
  const at = now.toISOString();
  const [row] = await queryRows<ClaimedRow>(
    db,
    sql`update webhook_deliveries d set status = 'sending', claimed_at = ${at}::timestamptz, attempts = 1
        from webhook_events e, webhook_endpoints w
        where d.id = ${deliveryId} and e.id = d.event_id and w.id = d.endpoint_id
          and (d.status <> 'sending' or d.claimed_at < ${new Date(now.getTime() - LEASE_MS).toISOString()}::timestamptz)
        returning ${CLAIMED}`,
  );
  return row ? toClaimed(row) : null;
}

/** One signed POST of a claimed delivery. */
export async function attempt(ctx: DispatchContext, row: Claimed, now: Date): Promise<PostOutcome> {
  const secret = ctx.links.unseal(SECRET_SEAL_PURPOSE, row.secretSealed);
  if (!secret) {
    return {
      ok: false,
      statusCode: null,
      durationMs: 0,
      responseExcerpt: null,
      error:
        "The signing secret cannot be read (the server's SESSION_SECRET changed): add the endpoint again",
    };
  }
  const body = bodyFor(row.format, row.event, ctx.publicUrl);
  return postWebhook({
    url: row.url,
    body,
    allowPrivate: ctx.allowPrivate,
    headers: { "content-type": "application/json", ...signedHeaders(secret, row.messageId, body, now) },
  });
}

export type Settled = "delivered" | "retrying" | "failed" | null;

/**
 * Records the attempt and its consequences in one statement: the attempt's log line, the
 * delivery's new state (only while this claim still holds it), the endpoint's failure streak and,
 * when that reaches the limit, its disabling. Answers the delivery's new state and whether this
 * attempt disabled the endpoint.
 */
export async function settle(
  db: Db,
  row: Claimed,
  outcome: PostOutcome,
  attemptedAt: Date,
  opts: { manual?: boolean } = {},
): Promise<{ state: Settled; disabled: boolean }> {
  const at = attemptedAt.toISOString();
  const last = row.attempts >= WEBHOOK_MAX_ATTEMPTS;
  const state: Exclude<Settled, null> = outcome.ok ? "delivered" : last ? "failed" : "retrying";
  const next =
    outcome.ok || last ? null : new Date(attemptedAt.getTime() + WEBHOOK_RETRY_DELAYS_MS[row.attempts - 1]!);
  // This failure ends a streak of at least 10 that began 24 hours ago or more: the endpoint is disabled.
  const disabling = sql`(w.consecutive_failures + 1 >= ${WEBHOOK_DISABLE_MIN_FAILURES}
    and coalesce(w.failing_since, ${at}::timestamptz)
        <= ${new Date(attemptedAt.getTime() - WEBHOOK_DISABLE_AFTER_MS).toISOString()}::timestamptz)`;
  const endpointChange = outcome.ok
    ? sql`consecutive_failures = 0, failing_since = null, last_success_at = ${at}::timestamptz`
    : sql`consecutive_failures = w.consecutive_failures + 1,
          failing_since = coalesce(w.failing_since, ${at}::timestamptz),
          enabled = w.enabled and not ${disabling},
          disabled_at = case when w.enabled and ${disabling} then ${at}::timestamptz else w.disabled_at end,
          disabled_reason = case when w.enabled and ${disabling}
            then 'Every delivery failed for 24 hours (' || (w.consecutive_failures + 1) || ' attempts in a row)'
            else w.disabled_reason end`;
  const [result] = await queryRows<{ settled: boolean; disabled: boolean | null }>(
    db,
    sql`with d as (
          update webhook_deliveries set
            status = ${outcome.ok ? "delivered" : last ? "failed" : "pending"},
            next_attempt_at = coalesce(${next?.toISOString() ?? null}::timestamptz, next_attempt_at),
            delivered_at = ${outcome.ok ? at : null}::timestamptz,
            last_status_code = ${outcome.statusCode}::int,
            last_error = ${outcome.error}
          where id = ${row.id} and status = 'sending' and claimed_at = ${row.claimedAt.toISOString()}::timestamptz
          returning id, endpoint_id, company_id
        ),
        a as (
          insert into webhook_attempts (company_id, endpoint_id, delivery_id, attempted_at, status_code, duration_ms,
                                        response_excerpt, error, manual)
          select company_id, endpoint_id, id, ${at}::timestamptz, ${outcome.statusCode}::int, ${outcome.durationMs}::int,
                 ${outcome.responseExcerpt}, ${outcome.error}, ${opts.manual ?? false}
          from d
          returning 1
        ),
        e as (
          update webhook_endpoints w set ${endpointChange}
          from d where w.id = d.endpoint_id
          returning w.disabled_at = ${at}::timestamptz and not w.enabled as disabled
        )
        select exists (select 1 from d) as settled, (select bool_or(disabled) from e) as disabled`,
  );
  return { state: result?.settled ? state : null, disabled: !!result?.disabled };
}

/** Sends one claimed delivery and settles it (the settle retried through a database outage once sent). */
export async function deliver(
  ctx: DispatchContext,
  row: Claimed,
  now: Date,
  opts: { manual?: boolean } = {},
): Promise<Settled> {
  const outcome = await attempt(ctx, row, now);
  const { state, disabled } = await retryThroughOutage(() => settle(ctx.db, row, outcome, now, opts));
  if (disabled)
    await mailDisabledEndpoint(ctx, row.endpointId).catch((err: unknown) =>
      ctx.log.error({ err, endpointId: row.endpointId }, "the webhook's disabling could not be e-mailed"),
    );
  return state;
}

/**
 * Delivers every due delivery, a claimed batch at a time (each batch's attempts side by side: one
 * slow receiver holds up a batch for at most its 5 s), until none is due or `shouldStop`.
 */
export async function sendDueWebhooks(
  ctx: DispatchContext,
  opts: { now?: () => Date; shouldStop?: () => boolean } = {},
): Promise<DispatchReport> {
  const now = opts.now ?? (() => new Date());
  const report: DispatchReport = { delivered: 0, retrying: 0, failed: 0 };
  for (;;) {
    if (opts.shouldStop?.()) return report;
    const claimed = await claimDue(ctx.db, now());
    if (!claimed.length) return report;
    const states = await Promise.all(claimed.map((row) => deliver(ctx, row, now())));
    for (const s of states) if (s) report[s]++;
  }
}
