import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "../../db/client.ts";
import type { WebhookDelivery } from "../../../shared/schemas/webhooks.ts";
import { subjectOf } from "./format.ts";

/*
 * The delivery log of one endpoint (issue 30): its deliveries newest first, a page at a time, each
 * with its attempts (time, status code, duration, the answer's excerpt) newest first, and the
 * total: one statement.
 */

type Row = {
  id: string;
  message_id: string;
  type: string;
  data: Record<string, unknown> | string;
  occurred_at: Date | string;
  status: WebhookDelivery["status"];
  attempts: number;
  next_attempt_at: Date | string | null;
  delivered_at: Date | string | null;
  attempt_log: WebhookDelivery["attempt_log"] | string;
  total: number;
};

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
const json = <T>(v: T | string): T => (typeof v === "string" ? (JSON.parse(v) as T) : v);

export async function loadDeliveryPage(
  db: Db,
  endpointId: string,
  page: number,
  pageSize: number,
  canResend: boolean,
): Promise<{ deliveries: WebhookDelivery[]; total: number }> {
  const rows = await selectDeliveries(
    db,
    sql`d.endpoint_id = ${endpointId}`,
    sql`limit ${pageSize} offset ${(page - 1) * pageSize}`,
  );
  const deliveries = rows.map((r) => present(r, canResend));
  // Past the last page there is no row to carry the total: count apart only then.
  if (rows.length || page === 1) return { deliveries, total: rows[0]?.total ?? 0 };
  const [count] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId}`,
  );
  return { deliveries, total: count?.n ?? 0 };
}

/** One delivery as the log shows it (after a 'Resend' or a test event). */
export async function loadDelivery(db: Db, deliveryId: string, canResend: boolean): Promise<WebhookDelivery> {
  const [row] = await selectDeliveries(db, sql`d.id = ${deliveryId}`, sql`limit 1`);
  return present(row!, canResend);
}

function selectDeliveries(db: Db, where: SQL, page: SQL): Promise<Row[]> {
  return queryRows<Row>(
    db,
    sql`select d.id, d.message_id, e.type, e.data, e.occurred_at, d.status, d.attempts,
               case when d.status in ('pending', 'sending') then d.next_attempt_at end as next_attempt_at,
               d.delivered_at,
               coalesce((select json_agg(json_build_object(
                   'attempted_at', to_char(a.attempted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                   'status_code', a.status_code, 'duration_ms', a.duration_ms,
                   'response_excerpt', a.response_excerpt, 'error', a.error, 'manual', a.manual)
                   order by a.attempted_at desc, a.id)
                 from webhook_attempts a where a.delivery_id = d.id), '[]'::json) as attempt_log,
               count(*) over ()::int as total
        from webhook_deliveries d join webhook_events e on e.id = d.event_id
        where ${where}
        order by d.created_at desc, d.id desc
        ${page}`,
  );
}

function present(r: Row, canResend: boolean): WebhookDelivery {
  const data = json(r.data);
  return {
    id: r.id,
    message_id: r.message_id,
    event_type: r.type as WebhookDelivery["event_type"],
    occurred_at: iso(r.occurred_at)!,
    subject: subjectOf(data),
    status: r.status,
    attempts: Number(r.attempts),
    next_attempt_at: iso(r.next_attempt_at),
    delivered_at: iso(r.delivered_at),
    attempt_log: json(r.attempt_log),
    can: { resend: canResend && r.status !== "sending" },
  };
}
