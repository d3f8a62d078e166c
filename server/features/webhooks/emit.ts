import { sql, type SQL } from "drizzle-orm";
import type { WebhookEventType } from "../../../shared/domain/webhooks.ts";
import { queryRows, type Db } from "../../db/client.ts";

/**
 * Recording webhook events (issue 30, item 3; decision 0035): the outbox. A write that changes
 * something an endpoint may hear of calls emitWebhookEvents() in its own transaction, so the event
 * exists exactly when the change does. One statement: the company's enabled endpoints for the type,
 * the event (its data built here from the permit as it is now, inside the transaction), and one
 * delivery per endpoint with its webhook-id. With no endpoint for the type it writes nothing.
 */

export interface WebhookEventItem {
  /** The permit or bond the event is about (every event is about one). */
  permitId: string;
  /** Merged into the data beside `permit`: { entry: {...} }, { request: {...} }, { task: {...} }. */
  extra?: Record<string, unknown>;
  /** A time-driven event's key: recorded once per company and key (expiring, expired, overdue). */
  dedupeKey?: string;
}

/** The event's `permit`: what a receiver needs to recognise it, never comments, files or contacts. */
export const permitPayloadSql = (p = "p", pr = "pr", cl = "cl", su = "su"): SQL => {
  const [P, PR, CL, SU] = [p, pr, cl, su].map((a) => sql.raw(a));
  return sql`jsonb_build_object(
    'id', ${P}.id, 'kind', ${P}.record_type, 'number', ${P}.permit_number, 'name', ${P}.permit_name,
    'agency', ${P}.agency, 'status', ${P}.status, 'issue_date', ${P}.issue_date,
    'expiration_date', ${P}.expiration_date, 'renew_by_date', ${P}.renew_by_date,
    'close_date', ${P}.close_date,
    'bond', case when ${P}.record_type = 'bond' then jsonb_build_object(
      'number', ${P}.bond_number, 'surety', coalesce(${SU}.name, ${P}.surety_company),
      'type', ${P}.guarantee_type, 'current_amount', ${P}.current_amount, 'status', ${P}.bond_status) end,
    'project', case when ${PR}.id is not null then jsonb_build_object(
      'id', ${PR}.id, 'name', ${PR}.name, 'number', ${PR}.project_number) end,
    'client', case when ${CL}.id is not null then jsonb_build_object('id', ${CL}.id, 'name', ${CL}.name) end)`;
};

/** The joins permitPayloadSql() reads, after `from permits p`. */
export const permitPayloadJoins = (p = "p", pr = "pr", cl = "cl", su = "su"): SQL => {
  const [P, PR, CL, SU] = [p, pr, cl, su].map((a) => sql.raw(a));
  return sql`left join projects ${PR} on ${PR}.id = ${P}.project_id
    left join clients ${CL} on ${CL}.id = ${P}.client_id
    left join sureties ${SU} on ${SU}.id = ${P}.surety_id`;
};

/** Endpoints of `companyId` (a SQL expression) that hear `type`: enabled, and subscribed (or to all). */
export const listeningEndpoints = (companyId: SQL, type: SQL, w = "w"): SQL => {
  const W = sql.raw(w);
  return sql`${W}.company_id = ${companyId} and ${W}.enabled and (${W}.events is null or ${type} = any(${W}.events))`;
};

let recorded = 0;
/** How many deliveries this process has recorded: the dispatcher runs after a request that made one. */
export const recordedCount = () => recorded;

/** A new delivery's webhook-id. */
export const newMessageIdSql = sql`'msg_' || replace(gen_random_uuid()::text, '-', '')`;

/**
 * Records `type` about each item's permit for every endpoint of `companyId` that hears it, in the
 * caller's transaction (`tx`). Returns how many deliveries it made (0 with no endpoint).
 */
export async function emitWebhookEvents(
  tx: Db,
  companyId: string,
  type: WebhookEventType,
  items: WebhookEventItem[],
): Promise<number> {
  if (!items.length) return 0;
  const json = JSON.stringify(
    items.map((i, ord) => ({
      permit_id: i.permitId,
      extra: i.extra ?? {},
      dedupe_key: i.dedupeKey ?? null,
      ord,
    })),
  );
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`with ep as (
          select w.id from webhook_endpoints w where ${listeningEndpoints(sql`${companyId}::uuid`, sql`${type}::text`)}
        ),
        items as (
          select i.permit_id::uuid as permit_id, i.extra, i.dedupe_key, i.ord
          from jsonb_to_recordset(${json}::jsonb) as i(permit_id text, extra jsonb, dedupe_key text, ord int)
          where exists (select 1 from ep)
        ),
        ev as (
          insert into webhook_events (company_id, type, data, dedupe_key)
          select ${companyId}::uuid, ${type}, jsonb_build_object('permit', ${permitPayloadSql()}) || items.extra,
                 items.dedupe_key
          from items join permits p on p.id = items.permit_id and p.company_id = ${companyId}::uuid
          ${permitPayloadJoins()}
          order by items.ord
          on conflict (company_id, dedupe_key) do nothing
          returning id
        ),
        made as (
          insert into webhook_deliveries (company_id, endpoint_id, event_id, message_id)
          select ${companyId}::uuid, ep.id, ev.id, ${newMessageIdSql} from ev cross join ep
          returning 1
        )
        select count(*)::int as n from made`,
  );
  const n = rows[0]?.n ?? 0;
  recorded += n;
  return n;
}
