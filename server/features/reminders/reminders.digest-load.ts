import { and, asc, eq, inArray, not, sql } from "drizzle-orm";
import { ESCALATION_RECIPIENT_ROLES } from "../../access/policies/reminders.ts";
import type { LinkSigner } from "../../auth/link-signer.ts";
import { queryRows, type Db } from "../../db/client.ts";
import {
  clients,
  conditionTasks,
  documentRequests,
  permitConditions,
  permits,
  projects,
  reminderDeliveries,
} from "../../db/schema.ts";
import { signAcknowledgeToken } from "./acknowledge-token.ts";
import { selectPermitView } from "../permits/index.ts";
import type { Digest, DigestItem, DigestRequest, DigestTask } from "./reminders.digest.ts";
import { answerableRequest, openPermit, overdueRequest } from "./reminders.eligibility.ts";

/**
 * Step 2 of sending (reminders.sender.ts): what one claimed (recipient, day) group's digest shows.
 * One statement for the recipient and which kinds the group holds, then one per kind present: the
 * reminders and escalations with their permits (and the open request about each, issue 27), the
 * overdue digest's permits, the overdue requests, the conditions' tasks (issue 29). Never a statement
 * per permit or task.
 */

type DigestRow = Omit<DigestItem, "acknowledgeToken"> & {
  recipientUserId: string;
  termNo: number;
  countdownDate: string;
};

/** The columns a digest line needs, from the permit view. */
const digestColumns = {
  permitId: permits.id,
  permitName: permits.permitName,
  permitNumber: permits.permitNumber,
  recordType: permits.recordType,
  projectName: projects.name,
  clientName: clients.name,
  agency: permits.agency,
  expirationDate: permits.expirationDate,
  renewByDate: permits.renewByDate,
};

/** A request as the digest names it (alias `document_requests` or `dr`), its day in the company's zone. */
const requestJson = (r: string) => {
  const t = sql.raw(r);
  return sql`json_build_object('partyName', ${t}.party_name, 'partyOrganization', ${t}.party_organization,
    'documentKind', ${t}.document_kind, 'title', ${t}.title,
    'requestedOn', (${t}.created_at at time zone companies.time_zone)::date,
    'dueDate', ${t}.due_date, 'status', ${t}.status)`;
};

interface GroupHead {
  recipientEmail: string;
  firstName: string;
  lastName: string;
  role: string;
  companyName: string;
  companyId: string;
  recipientUserId: string;
  hasPermits: boolean;
  hasOverdue: boolean;
  hasOverdueRequests: boolean;
  hasTasks: boolean;
}

/**
 * Loads what a digest shows for the claimed rows `ids` of one group (their day `dueDate`); `now`
 * decides which requests are still answerable. Null when nothing is left to show.
 */
export async function loadDigest(
  db: Db,
  ids: string[],
  dueDate: string,
  now: Date,
  links: LinkSigner,
): Promise<Digest | null> {
  const idList = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const [head] = await queryRows<GroupHead>(
    db,
    sql`select min(r.recipient_email) as "recipientEmail", u.first_name as "firstName", u.last_name as "lastName",
               u.role, c.name as "companyName", c.id as "companyId", u.id as "recipientUserId",
               bool_or(r.kind in ('reminder', 'escalation')) as "hasPermits",
               bool_or(r.kind = 'overdue') as "hasOverdue",
               bool_or(r.kind = 'overdue_request') as "hasOverdueRequests",
               bool_or(r.task_id is not null) as "hasTasks"
        from reminder_deliveries r
        join users u on u.id = r.recipient_user_id
        join companies c on c.id = r.company_id
        where r.id in (${idList})
        group by u.id, c.id
        limit 1`,
  );
  if (!head) return null;
  const rows = [
    ...(head.hasPermits ? await loadPermitLines(db, ids, now) : []),
    ...(head.hasOverdue ? await loadOverdue(db, head, dueDate) : []),
    ...(head.hasOverdueRequests ? await loadOverdueRequests(db, head, dueDate) : []),
    ...(head.hasTasks ? await loadTaskLines(db, ids, now) : []),
  ];
  if (!rows.length) return null;
  return {
    recipientEmail: head.recipientEmail,
    recipientName: `${head.firstName} ${head.lastName}`.trim() || head.recipientEmail,
    companyName: head.companyName,
    dueDate,
    items: rows.map(({ recipientUserId, termNo, countdownDate, ...item }) => ({
      ...item,
      // Reminders and escalations can be acknowledged from the e-mail; overdue notices go on until acted on.
      acknowledgeToken:
        item.kind === "reminder" || item.kind === "escalation"
          ? signAcknowledgeToken(links, {
              permitId: item.permitId,
              recipientUserId,
              termNo,
              dueOn: countdownDate,
            })
          : null,
    })),
  };
}

/** The group's reminders and escalations with their permits, and the newest open, not overdue request about each. */
async function loadPermitLines(db: Db, ids: string[], now: Date): Promise<DigestRow[]> {
  const rows = await selectPermitView(db, {
    ...digestColumns,
    recipientUserId: reminderDeliveries.recipientUserId,
    kind: reminderDeliveries.kind,
    termNo: reminderDeliveries.termNo,
    threshold: reminderDeliveries.threshold,
    countdownDate: reminderDeliveries.expirationDate,
    daysLeft: sql<number>`(${reminderDeliveries.expirationDate} - ${reminderDeliveries.dueDate})::int`,
    // Issue 27: "Renewal requested from NAME on DATE, due DATE" instead of the countdown.
    request: sql<DigestRequest | null>`(
      select ${requestJson("dr")} from document_requests dr
      where dr.permit_id = ${permits.id} and ${answerableRequest(sql`${now.toISOString()}::timestamptz`)}
        and (dr.due_date is null or dr.due_date >= ${reminderDeliveries.dueDate})
      order by dr.created_at desc limit 1)`,
  })
    .innerJoin(reminderDeliveries, eq(reminderDeliveries.permitId, permits.id))
    .where(and(inArray(reminderDeliveries.id, ids), sql`${reminderDeliveries.taskId} is null`));
  return rows.map((r) => ({
    ...r,
    kind: r.kind as DigestItem["kind"],
    expirationDate: r.expirationDate ?? r.countdownDate,
  }));
}

/** An overdue digest lists at most this many permits (the oldest first); the page has the rest. */
export const MAX_OVERDUE_LINES = 500;

/** The permits an overdue digest lists: its company's expired open permits as of its day. */
async function loadOverdue(db: Db, head: GroupHead, dueDate: string): Promise<DigestRow[]> {
  const rows = await selectPermitView(db, {
    ...digestColumns,
    termNo: permits.termNo,
    daysLeft: sql<number>`(${permits.expirationDate} - ${dueDate}::date)::int`,
  })
    .where(
      and(
        eq(permits.companyId, head.companyId),
        sql`${permits.expirationDate} < ${dueDate}::date`,
        openPermit("permits"),
      ),
    )
    .orderBy(asc(permits.expirationDate), asc(permits.permitName))
    .limit(MAX_OVERDUE_LINES);
  return rows.map((r) => ({
    ...r,
    kind: "overdue" as const,
    threshold: 0,
    expirationDate: r.expirationDate!,
    countdownDate: r.expirationDate!,
    recipientUserId: head.recipientUserId,
  }));
}

/**
 * The requests an 'Overdue request' digest lists as of its day (issue 27): past their due date and
 * still open or awaiting review; all of the company's for an admin, else those of the permits the
 * recipient is responsible for. A line per request, its due date in place of the expiry.
 */
async function loadOverdueRequests(db: Db, head: GroupHead, dueDate: string): Promise<DigestRow[]> {
  const isAdmin = (ESCALATION_RECIPIENT_ROLES as readonly string[]).includes(head.role);
  const rows = await selectPermitView(db, {
    ...digestColumns,
    termNo: permits.termNo,
    requestDue: documentRequests.dueDate,
    daysLeft: sql<number>`(${documentRequests.dueDate} - ${dueDate}::date)::int`,
    request: sql<DigestRequest>`${requestJson("document_requests")}`,
  })
    .innerJoin(documentRequests, eq(documentRequests.permitId, permits.id))
    .where(
      and(
        eq(documentRequests.companyId, head.companyId),
        overdueRequest(sql`${dueDate}::date`, "document_requests"),
        not(permits.archived),
        isAdmin ? undefined : eq(permits.responsibleUserId, head.recipientUserId),
      ),
    )
    .orderBy(asc(documentRequests.dueDate), asc(permits.permitName), asc(documentRequests.createdAt))
    .limit(MAX_OVERDUE_LINES);
  return rows.map(({ requestDue, ...r }) => ({
    ...r,
    kind: "overdue_request" as const,
    threshold: 0,
    expirationDate: requestDue!,
    countdownDate: requestDue!,
    recipientUserId: head.recipientUserId,
  }));
}

/**
 * The group's task deliveries (issue 29) with their tasks, conditions and permits: a line per
 * delivery, its due date in place of the expiry; overdue as of `now`.
 */
async function loadTaskLines(db: Db, ids: string[], now: Date): Promise<DigestRow[]> {
  const rows = await selectPermitView(db, {
    ...digestColumns,
    recipientUserId: reminderDeliveries.recipientUserId,
    kind: reminderDeliveries.kind,
    termNo: reminderDeliveries.termNo,
    threshold: reminderDeliveries.threshold,
    daysLeft: sql<number>`(${conditionTasks.dueOn} - ${reminderDeliveries.dueDate})::int`,
    task: sql<DigestTask>`json_build_object('id', ${conditionTasks.id}, 'title', ${permitConditions.title},
      'dueOn', ${conditionTasks.dueOn}, 'dueAt', ${conditionTasks.dueAt}, 'timed', ${conditionTasks.timed},
      'timeZone', ${sql.raw("companies.time_zone")}, 'overdue', ${conditionTasks.dueAt} < ${now.toISOString()}::timestamptz)`,
  })
    .innerJoin(reminderDeliveries, eq(reminderDeliveries.permitId, permits.id))
    .innerJoin(conditionTasks, eq(conditionTasks.id, reminderDeliveries.taskId))
    .innerJoin(permitConditions, eq(permitConditions.id, conditionTasks.conditionId))
    .where(inArray(reminderDeliveries.id, ids));
  return rows.map((r) => ({
    ...r,
    kind: r.kind as DigestItem["kind"],
    expirationDate: r.task.dueOn,
    countdownDate: r.task.dueOn,
  }));
}
