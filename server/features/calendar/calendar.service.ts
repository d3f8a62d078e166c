import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gte, isNotNull, ne, not } from "drizzle-orm";
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
        isNotNull(permits.expirationDate),
        gte(permits.expirationDate, from),
      ),
    )
    .orderBy(asc(permits.expirationDate), asc(permits.permitName), asc(permits.id))
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
    if (!p.renewByDate) return [expiry];
    return [
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
    description: `Expiration dates of the permits and bonds ${owner.name} can see in Permitrack.`,
    events,
  });
}
