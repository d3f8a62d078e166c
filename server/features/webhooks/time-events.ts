import { sql, type SQL } from "drizzle-orm";
import { REMINDER_DAYS } from "../../../shared/domain/constants.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { listeningEndpoints, newMessageIdSql, permitPayloadJoins, permitPayloadSql } from "./emit.ts";

/**
 * Time-driven webhook events (issue 30, item 3): what becomes true by the passing of time rather
 * than by a write, recorded by a periodic run. One statement for every company: each company's
 * "today" in its time zone (as of `now`), the candidates, the events under their dedupe keys (so a
 * run again, or in parallel, records nothing twice) and one delivery per endpoint that hears each.
 * Only companies with an enabled endpoint are looked at, and an event only where one hears it.
 *
 * - permit.expiring: an open permit whose countdown date (the renew-by date when a lead time is
 *   set, else the expiry) is within a reminder threshold's window, the windows of the reminders
 *   sweep over REMINDER_DAYS (above the next lower threshold, at or below this one): once per
 *   permit, countdown date and threshold; data: days_left, threshold.
 * - permit.expired: an open permit whose expiration date has passed, at most LOOKBACK_DAYS ago
 *   (an endpoint added later does not get years of history); once per permit and date.
 * - task.overdue: an open condition task of an open permit, past its due date (a timed task: its
 *   due time), due at most LOOKBACK_DAYS ago; once per task; data: the task's id, title, due date.
 *
 * "Open" is the reminders' rule (reminders.eligibility.ts openPermit(), re-stated here: this
 * feature imports no other): not archived, not N/A, not closed, not a released or cancelled bond.
 */

/** How far back an expiry or an overdue task is still news. */
export const LOOKBACK_DAYS = 7;

const openPermit = (p = "p"): SQL => {
  const P = sql.raw(p);
  return sql`not ${P}.archived and ${P}.status <> 'N/A' and ${P}.close_date is null
    and not coalesce(${P}.bond_status in ('released', 'cancelled'), false)`;
};

/** Each threshold with the next lower one (-1 under the lowest): the sweep's windows. */
const thresholdWindows = (): SQL => {
  const days = [...REMINDER_DAYS].sort((a, b) => b - a);
  return sql.join(
    days.map((d, i) => sql`(${sql.raw(String(d))}, ${sql.raw(String(days[i + 1] ?? -1))})`),
    sql`, `,
  );
};

/**
 * Records the time-driven events due at `now` for every company and returns how many deliveries
 * it made (0 when nothing is new).
 */
export async function recordTimeEvents(db: Db, now: Date): Promise<number> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = await queryRows<{ n: number }>(
    db,
    sql`with co as (
          select c.id as company_id, (${at} at time zone c.time_zone)::date as today
          from companies c
          where exists (select 1 from webhook_endpoints w where w.company_id = c.id and w.enabled)
        ),
        cand as (
          select co.company_id, 'permit.expiring'::text as type, p.id as permit_id,
                 'permit.expiring:' || p.id || ':' || p.countdown_date || ':' || t.threshold as dedupe_key,
                 jsonb_build_object('days_left', p.countdown_date - co.today, 'threshold', t.threshold) as extra
          from co
          cross join (values ${thresholdWindows()}) as t(threshold, lower_bound)
          join permits p
            on p.company_id = co.company_id
           and p.countdown_date > co.today + t.lower_bound
           and p.countdown_date <= co.today + t.threshold
           and ${openPermit()}
          union all
          select co.company_id, 'permit.expired', p.id,
                 'permit.expired:' || p.id || ':' || p.expiration_date, '{}'::jsonb
          from co
          join permits p
            on p.company_id = co.company_id
           and p.expiration_date < co.today
           and p.expiration_date >= co.today - ${LOOKBACK_DAYS}::int
           and ${openPermit()}
          union all
          select co.company_id, 'task.overdue', t.permit_id, 'task.overdue:' || t.id,
                 jsonb_build_object('task', jsonb_build_object('id', t.id, 'title', pc.title, 'due_on', t.due_on))
          from co
          join condition_tasks t
            on t.company_id = co.company_id
           and t.status = 'open'
           and t.due_on >= co.today - ${LOOKBACK_DAYS}::int
           and t.due_on <= co.today
           and (case when t.timed then t.due_at < ${at} else t.due_on < co.today end)
          join permit_conditions pc on pc.id = t.condition_id
          join permits p on p.id = t.permit_id and ${openPermit()}
        ),
        heard as (
          select cand.* from cand
          where exists (select 1 from webhook_endpoints w
                        where ${listeningEndpoints(sql`cand.company_id`, sql`cand.type`)})
        ),
        ev as (
          insert into webhook_events (company_id, type, data, dedupe_key)
          select h.company_id, h.type, jsonb_build_object('permit', ${permitPayloadSql()}) || h.extra, h.dedupe_key
          from heard h join permits p on p.id = h.permit_id and p.company_id = h.company_id
          ${permitPayloadJoins()}
          on conflict (company_id, dedupe_key) do nothing
          returning id, company_id, type
        ),
        made as (
          insert into webhook_deliveries (company_id, endpoint_id, event_id, message_id)
          select ev.company_id, w.id, ev.id, ${newMessageIdSql}
          from ev join webhook_endpoints w on ${listeningEndpoints(sql`ev.company_id`, sql`ev.type`)}
          returning 1
        )
        select count(*)::int as n from made`,
  );
  return rows[0]?.n ?? 0;
}
