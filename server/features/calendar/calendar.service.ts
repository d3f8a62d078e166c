import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gte, isNotNull, ne, not, or, sql } from "drizzle-orm";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import { formatDate } from "../../../shared/domain/format.ts";
import { isRole } from "../../../shared/domain/roles.ts";
import { RECORD_TYPE_LABELS, type RecordType } from "../../../shared/domain/statuses.ts";
import { choosesCompany, type Actor } from "../../access/actor.ts";
import { actorFromUser } from "../../access/actor-from-user.ts";
import { mustUseTwoFactor } from "../../access/policies/two-factor.ts";
import type { Db } from "../../db/client.ts";
import { clients, companies, companyPreferences, permits, projects, users } from "../../db/schema.ts";
import { DEFAULT_SWITCHES, enabledThresholds } from "../notifications/index.ts";
import { notClosedCondition, permitScope, selectPermitView } from "../permits/index.ts";
import { buildCalendar, type IcsEvent } from "./ics.ts";
import { paths } from "../../../shared/domain/paths.ts";

/** An open task of a permit in the feed (issue 29). */
interface FeedTask {
  id: string;
  title: string;
  dueOn: string;
  dueAt: string;
  timed: boolean;
  createdAt: string;
}

/** Expirations older than this stay out of the feed: calendars need what is coming, not all history. */
const PAST_DAYS = 365;
/** A feed is re-read by every subscribed calendar every few hours; keep it bounded. */
const MAX_EVENTS = 5000;

/**
 * Feed tokens are 256-bit random secrets; the database keeps only their SHA-256, so a leaked
 * database does not leak feeds. A lookup by that hash is by an index on a value the caller cannot
 * steer, so its timing says nothing about the stored tokens.
 */
export const hashFeedToken = (token: string) => createHash("sha256").update(token).digest("hex");
export const FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const feedUrl = (publicUrl: string, token: string) => `${publicUrl}/api/calendar/${token}.ics`;

/** Creates the user's feed token, replacing (and so revoking) any previous one; returns the secret. */
export async function rotateFeedToken(db: Db, userId: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db
    .update(users)
    .set({ calendarToken: hashFeedToken(token) })
    .where(eq(users.id, userId));
  return token;
}

export async function revokeFeedToken(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ calendarToken: null }).where(eq(users.id, userId));
}

export async function hasFeedToken(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ token: users.calendarToken }).from(users).where(eq(users.id, userId));
  return !!row?.token;
}

/**
 * The owner of a feed token as an Actor, so the feed is scoped by the very rules the permit list
 * uses, or null for an unknown, revoked or disabled one. Like a session's Actor it says whether the
 * owner is held at the two-factor set-up gate; the route asks the policy whether the feed answers.
 */
export async function findFeedOwner(db: Db, token: string): Promise<Actor | null> {
  if (!FEED_TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select({ user: users, requireTwoFactor: companies.requireTwoFactor })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.calendarToken, hashFeedToken(token)));
  const user = row?.user;
  if (!user || user.banned || !isRole(user.role)) return null;
  return actorFromUser(
    db,
    { ...user, role: user.role },
    {
      // As the session decides it (decision 0011): must use a second factor and has none yet.
      twoFactorSetupRequired:
        !user.twoFactorEnabled &&
        mustUseTwoFactor(user, { requireTwoFactor: row?.requireTwoFactor ?? false }),
    },
  );
}

/**
 * The iCalendar text of the owner's feed: the expiration dates of the permits and bonds the owner
 * may see (not archived, not N/A), each an all-day event with alarms at its company's switched-on
 * reminder thresholds.
 */
export async function renderFeed(db: Db, owner: Actor, publicUrl: string): Promise<string> {
  const from = addDays(todayIn("UTC"), -PAST_DAYS);
  const rows = await selectPermitView(db, {
    id: permits.id,
    name: permits.permitName,
    number: permits.permitNumber,
    recordType: permits.recordType,
    agency: permits.agency,
    expirationDate: permits.expirationDate,
    renewByDate: permits.renewByDate,
    updatedAt: permits.updatedAt,
    // Issue 29: the permit's open tasks of live conditions, in the same statement.
    tasks: sql<FeedTask[] | null>`(
      select json_agg(json_build_object('id', t.id, 'title', c.title, 'dueOn', t.due_on, 'dueAt', t.due_at,
                                        'timed', t.timed, 'createdAt', t.created_at) order by t.due_at, t.id)
      from condition_tasks t join permit_conditions c on c.id = t.condition_id and c.removed_at is null
      where t.permit_id = ${permits.id} and t.status = 'open')`,
    projectName: projects.name,
    clientName: clients.name,
    companyName: companies.name,
    prefs: {
      email30Day: companyPreferences.email30Day,
      email7Day: companyPreferences.email7Day,
      email1Day: companyPreferences.email1Day,
    },
  })
    .leftJoin(companyPreferences, eq(companyPreferences.companyId, permits.companyId))
    .where(
      and(
        permitScope(owner),
        not(permits.archived),
        ne(permits.status, "N/A"),
        // A closed permit or bond has nothing left to renew (issues 11, 25).
        notClosedCondition(),
        or(
          and(isNotNull(permits.expirationDate), gte(permits.expirationDate, from)),
          sql`exists (select 1 from condition_tasks t where t.permit_id = ${permits.id} and t.status = 'open')`,
        ),
      ),
    )
    .orderBy(sql`${permits.expirationDate} asc nulls last`, asc(permits.permitName), asc(permits.id))
    .limit(MAX_EVENTS);

  const host = new URL(publicUrl).hostname;
  const isMultiCompany = choosesCompany(owner);
  const events: IcsEvent[] = rows.flatMap((p) => {
    const type = RECORD_TYPE_LABELS[p.recordType as RecordType] ?? p.recordType;
    const url = publicUrl + paths.permit(p.id);
    // drizzle gives a left-joined row of all-null columns as null: no preferences row means all on.
    const switches = p.prefs ?? DEFAULT_SWITCHES;
    const description = [
      `${type} ${p.number}: ${p.name}`,
      ...(isMultiCompany ? [`Company: ${p.companyName}`] : []),
      `Project: ${p.projectName ?? "—"}`,
      `Client: ${p.clientName ?? "—"}`,
      `Agency: ${p.agency ?? "—"}`,
      ...(p.renewByDate ? [`Renew by: ${formatDate(p.renewByDate)}`] : []),
      url,
    ].join("\n");
    // A task due on a date is an all-day event on it; one due at a time (an event's window) is timed.
    const taskEvents: IcsEvent[] = (p.tasks ?? []).map((task) => ({
      uid: `task-${task.id}@${host}`,
      stamp: new Date(task.createdAt),
      date: task.dueOn,
      ...(task.timed ? { at: new Date(task.dueAt) } : {}),
      summary: `Task due: ${task.title} (${p.number})`,
      description,
      url,
      categories: [type, "Task"],
      alarmDaysBefore: [],
    }));
    const hasExpiry = !!p.expirationDate && p.expirationDate >= from;
    if (!hasExpiry) return taskEvents;
    const expiry: IcsEvent = {
      // One UID per permit: a changed expiration date moves the event instead of adding another.
      uid: `permit-${p.id}@${host}`,
      stamp: p.updatedAt,
      date: p.expirationDate!,
      summary: `${type} expires: ${p.name} (${p.number})`,
      description,
      url,
      categories: [type],
      // With a renew-by date the reminders count down to it, and so do the alarms (on its event).
      alarmDaysBefore: p.renewByDate ? [] : enabledThresholds(switches),
    };
    if (!p.renewByDate) return [expiry, ...taskEvents];
    return [
      ...taskEvents,
      expiry,
      {
        uid: `permit-${p.id}-renew-by@${host}`,
        stamp: p.updatedAt,
        date: p.renewByDate,
        summary: `Renew by: ${p.name} (${p.number})`,
        description,
        url,
        categories: [type, "Renewal"],
        alarmDaysBefore: enabledThresholds(switches),
      },
    ];
  });
  const [company] = owner.companyId
    ? await db.select({ name: companies.name }).from(companies).where(eq(companies.id, owner.companyId))
    : [];
  return buildCalendar({
    name: company ? `Permitrack – ${company.name}` : "Permitrack",
    description: `Expiration dates of the permits and bonds ${owner.name} can see in Permitrack, and their open tasks.`,
    events,
  });
}
