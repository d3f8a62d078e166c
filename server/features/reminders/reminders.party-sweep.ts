import { sql, type SQL } from "drizzle-orm";
import { REQUEST_REMINDER_DAYS } from "../../../shared/domain/request-reminders.ts";
import { answerableRequest } from "./reminders.eligibility.ts";
import { companiesCte, type SweepOptions } from "./reminders.day.ts";

/**
 * The party's reminders of a document request (issue 27, decision 0029), a step of the sweep: 7 and
 * 1 days before the request's due date and on it, in the company's zone and from its reminder hour,
 * recorded in request_deliveries (kind 'reminder') under its unique key (request, threshold, due
 * date), so a second sweep or process records nothing twice and a changed due date gets its own.
 * The requests feature's sender claims and e-mails them like the request itself.
 *
 * - The window of a threshold reaches down to the next one, so a missed day is caught up once, and
 *   nothing is recorded once the due date has passed.
 * - Only for a request the party can still answer (open, not revoked, its link not expired): a
 *   submitted, approved, revoked or expired one gets none.
 * - Only for a day the party already had the request: a threshold whose day came before the
 *   request was created (company-local) is skipped, so a request due in 5 days gets no '7 days'
 *   reminder on top of the request itself.
 */

/** (threshold, lower bound) pairs: a threshold's window is (due - threshold .. due - lower bound]. */
const windows = () => {
  const days = [...REQUEST_REMINDER_DAYS].sort((a, b) => b - a);
  return sql.join(
    days.map((d, i) => sql`(${sql.raw(String(d))}, ${sql.raw(String(days[i + 1] ?? -1))})`),
    sql`, `,
  );
};

/**
 * SELECT of the party reminders due now, in request_deliveries' column order: company_id,
 * request_id, kind, threshold, due_date, recipient_email.
 */
export function partyReminderSelect(opts: SweepOptions): SQL {
  const now = sql`${opts.now.toISOString()}::timestamptz`;
  return sql`
    with ${companiesCte(opts)}
    select dr.company_id, dr.id as request_id, 'reminder'::text as kind, w.threshold, dr.due_date,
           dr.party_email as recipient_email
    from co
    cross join (values ${windows()}) as w(threshold, lower_bound)
    join document_requests dr
      on dr.company_id = co.company_id
     and dr.due_date > co.today + w.lower_bound
     and dr.due_date <= co.today + w.threshold
     and ${answerableRequest(now)}
     and (dr.created_at at time zone co.time_zone)::date < dr.due_date - w.threshold`;
}
