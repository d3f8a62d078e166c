import { sql, type SQL } from "drizzle-orm";
import { DIGEST_RECIPIENT_ROLES, ESCALATION_RECIPIENT_ROLES } from "../../access/policies/reminders.ts";
import { RENEWAL_PENDING_DAYS } from "../../../shared/domain/request-reminders.ts";

/**
 * Who gets reminded of what, written once: the sweep (reminders.sweep.ts) records a delivery when
 * these hold, and the sender (reminders.sender.ts) cancels a recorded one when they no longer do,
 * naming the first reason that fails. Each fragment takes the alias of the table it reads, so both
 * statements use the same words over their own joins.
 */

const alias = (name: string) => sql.raw(name);

/**
 * Why a permit gets no reminder, escalation or overdue notice any more, in the order the sender
 * reports it. A permit for which none holds is open.
 */
export const permitNotOpen = (p = "p"): [SQL, string][] => [
  [sql`${alias(p)}.archived`, "Permit archived"],
  [sql`${alias(p)}.status = 'N/A'`, "Permit marked N/A"],
  [sql`${alias(p)}.close_date is not null`, "Permit closed"],
  // A release or cancellation sets the close date too; this holds should the date be cleared since.
  [sql`coalesce(${alias(p)}.bond_status in ('released', 'cancelled'), false)`, "Bond closed"],
];

/** An open permit: not archived, not N/A, not closed, not a released or cancelled bond (every kind requires it). */
export const openPermit = (p = "p"): SQL =>
  sql.join(
    permitNotOpen(p).map(([condition]) => sql`not ${condition}`),
    sql` and `,
  );

/** Nobody acknowledged the permit's current term (reminders and escalations stop once someone did). */
export const unacknowledged = (p = "p"): SQL => sql`${alias(p)}.acknowledged_at is null`;

/**
 * 'Renewal Pending' (issue 27): a submission of a document request about the permit awaits review,
 * and was submitted less than RENEWAL_PENDING_DAYS before `now`. Reminders and escalations pause
 * meanwhile (the sweep records none, the sender cancels those recorded before); unreviewed longer,
 * they resume.
 */
export const renewalPending = (now: SQL, p = "p"): SQL =>
  sql`exists (select 1 from document_requests rp
              where rp.permit_id = ${alias(p)}.id and ${pendingSubmission(now, "rp")})`;

/** A request (alias `r`) whose submission awaits review and came in less than RENEWAL_PENDING_DAYS before `now`. */
export const pendingSubmission = (now: SQL, r = "dr"): SQL =>
  sql`${alias(r)}.status = 'submitted' and ${alias(r)}.submitted_at > ${now} - make_interval(days => ${RENEWAL_PENDING_DAYS})`;

/** Why a reminder or escalation recorded for a permit in 'Renewal Pending' was cancelled (the sweep revives it after). */
export const RENEWAL_PENDING_REASON = "Renewal Pending";

/**
 * A document request the party may still answer, about which its e-mails and the digest's 'requested'
 * line speak: open (sent, or rejected and waiting for another upload), its link neither revoked nor
 * expired at `now`.
 */
export const answerableRequest = (now: SQL, r = "dr"): SQL =>
  sql`${alias(r)}.status = 'open' and ${alias(r)}.revoked_at is null and ${alias(r)}.expires_at > ${now}`;

/**
 * A request overdue on `day` (the contract's isRequestOverdue): its due date has passed and it is
 * still open or awaiting review. An expired link does not end it: someone must still act (revoke it,
 * ask again).
 */
export const overdueRequest = (day: SQL, r = "dr"): SQL =>
  sql`${alias(r)}.status in ('open', 'submitted') and ${alias(r)}.due_date < ${day}`;

/**
 * The user `u` (a member of the company) has a request overdue on `day` to hear of: an admin, any
 * of the company's; a user of the reminder roles, one about a permit they are responsible for.
 * Archived permits' requests are left out (as their reminders).
 */
export const hasOverdueRequestFor = (companyId: SQL, day: SQL, u = "u"): SQL =>
  sql`exists (select 1 from document_requests dr join permits q on q.id = dr.permit_id
              where dr.company_id = ${companyId} and ${overdueRequest(day)} and not q.archived
                and (${alias(u)}.role in ${ESCALATION_ROLES}
                     or (q.responsible_user_id = ${alias(u)}.id and ${alias(u)}.role in ${RECIPIENT_ROLES})))`;

/** The company's switch for a threshold (30, 7 or 1 days; no preferences row means on, spec section 9). */
export const thresholdSwitch = (days: 30 | 7 | 1, cp = "cp"): SQL =>
  sql`coalesce(${alias(cp)}.${sql.raw(`email_${days}_day`)}, true)`;

/** Whether the threshold held in `threshold` is switched on for the company. */
export const thresholdOn = (threshold: SQL, cp = "cp"): SQL =>
  sql`(case ${threshold} when 30 then ${thresholdSwitch(30, cp)} when 7 then ${thresholdSwitch(7, cp)}
       when 1 then ${thresholdSwitch(1, cp)} else false end)`;

/** The company's Overdue digest switch (on without a preferences row). */
export const overdueDigestOn = (cp = "cp"): SQL => sql`coalesce(${alias(cp)}.overdue_digest, true)`;

/** The company has an open permit that expired before `day`: an overdue digest has something to list. */
export const hasOverduePermit = (companyId: SQL, day: SQL): SQL =>
  sql`exists (select 1 from permits q
              where q.company_id = ${companyId} and q.expiration_date < ${day} and ${openPermit("q")})`;

const roleList = (roles: readonly string[]) =>
  sql`(${sql.join(
    roles.map((role) => sql`${role}`),
    sql`, `,
  )})`;

/** The roles that may receive reminders (the company's chosen recipients, the responsible person). */
export const RECIPIENT_ROLES = roleList(DIGEST_RECIPIENT_ROLES);
/** The roles that get escalations and the overdue digest: the company's admins. */
export const ESCALATION_ROLES = roleList(ESCALATION_RECIPIENT_ROLES);

/** A user who may still receive the company's mail: not disabled, still in the company. */
export const activeMember = (u: string, companyId: SQL): SQL =>
  sql`not ${alias(u)}.banned and ${alias(u)}.company_id = ${companyId}`;
