import { randomBytes } from "node:crypto";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { addDays } from "../../shared/domain/dates.ts";
import type { Role } from "../../shared/domain/roles.ts";
import type { ReminderSwitches } from "../../shared/schemas/notifications.ts";
import { queryRows, type Db } from "../db/client.ts";
import {
  companyPreferences,
  documentRequests,
  type permits,
  reminderDeliveries,
  requestDeliveries,
  userNotifications,
} from "../db/schema.ts";
import type { TestContext } from "./harness.ts";

/** Test fixtures of the reminder tests: a company with recipients, permits by days left, its deliveries. */
export async function reminderCompany(
  t: TestContext,
  opts: {
    timeZone?: string;
    switches?: Partial<ReminderSwitches>;
    recipients?: number;
    recipientRole?: Role;
    /**
     * Escalation Days and the Overdue digest (issue 11). Off unless asked for, so that a test of
     * the 30/7/1-day reminders sees only those; the escalation tests switch them on.
     */
    escalationDays?: number;
    overdueDigest?: boolean;
  } = {},
) {
  const company = await t.make.company({ timeZone: opts.timeZone ?? "UTC" });
  await t.db.insert(companyPreferences).values({
    companyId: company.id,
    email30Day: opts.switches?.email30Day ?? true,
    email7Day: opts.switches?.email7Day ?? true,
    email1Day: opts.switches?.email1Day ?? true,
    escalationDays: opts.escalationDays ?? 0,
    overdueDigest: opts.overdueDigest ?? false,
  });
  const recipients = [];
  for (let i = 0; i < (opts.recipients ?? 1); i++) {
    const user = await t.make.user({
      role: opts.recipientRole ?? (i ? "company-user" : "company-admin"),
      companyId: company.id,
    });
    await t.db.insert(userNotifications).values({ userId: user.id, companyId: company.id });
    recipients.push(user);
  }
  const project = await t.make.project({
    companyId: company.id,
    clientId: (await t.make.client(company.id)).id,
  });
  return {
    company,
    recipients,
    project,
    /** A permit of this company expiring `daysLeft` days after `asOf`. */
    permit: (asOf: string, daysLeft: number, overrides: Partial<typeof permits.$inferInsert> = {}) =>
      t.make.permit({
        companyId: company.id,
        projectId: project.id,
        expirationDate: addDays(asOf, daysLeft),
        ...overrides,
      }),
    deliveries: () => deliveriesOf(t.db, company.id),
  };
}

/** The reminder deliveries of one company, oldest first. */
export async function deliveriesOf(db: Db, companyId: string) {
  return db
    .select()
    .from(reminderDeliveries)
    .where(eq(reminderDeliveries.companyId, companyId))
    .orderBy(asc(reminderDeliveries.createdAt), asc(reminderDeliveries.threshold));
}

/** (permit, threshold) pairs recorded for the given permits, e.g. ["a:30", "b:7"]. */
export async function recordedPairs(db: Db, permitIds: Record<string, string>): Promise<string[]> {
  const names = new Map(Object.entries(permitIds).map(([name, id]) => [id, name]));
  const rows = await db
    .select({ permitId: reminderDeliveries.permitId, threshold: reminderDeliveries.threshold })
    .from(reminderDeliveries)
    .where(inArray(reminderDeliveries.permitId, [...names.keys()]));
  return rows.map((r) => `${names.get(r.permitId ?? "")}:${r.threshold}`).sort();
}

/**
 * A document request (issue 27) written directly, as the reminder tests need it: about `permitId`,
 * open, sent to "Jane Roe" by default; its token is random and unknown (no e-mail can carry it).
 */
export async function insertRequest(
  db: Db,
  permit: { id: string; companyId: string },
  overrides: Partial<typeof documentRequests.$inferInsert> = {},
) {
  const [row] = await db
    .insert(documentRequests)
    .values({
      companyId: permit.companyId,
      permitId: permit.id,
      partyName: "Jane Roe",
      partyEmail: `party-${randomBytes(4).toString("hex")}@surety.example.com`,
      documentKind: "renewed_permit",
      tokenHash: randomBytes(32).toString("hex"),
      expiresAt: new Date(Date.now() + 3650 * 86_400_000),
      ...overrides,
    })
    .returning();
  return row!;
}

/** The party's e-mails of some requests, oldest first. */
export async function requestDeliveriesOf(db: Db, requestIds: string[]) {
  return db
    .select()
    .from(requestDeliveries)
    .where(inArray(requestDeliveries.requestId, requestIds))
    .orderBy(asc(requestDeliveries.createdAt), asc(requestDeliveries.threshold));
}

/**
 * Ends a test's reminder traffic: the sweep and sender are global, so without this a later
 * test's run would also pick up an earlier test's companies (and document requests).
 */
export async function quiesce(db: Db) {
  await db.execute(
    sql`update reminder_deliveries set status = 'cancelled' where status in ('pending', 'sending')`,
  );
  await db.execute(
    sql`update request_deliveries set status = 'cancelled' where status in ('pending', 'sending')`,
  );
  await db.execute(
    sql`update document_requests set status = 'revoked', revoked_at = now() where status in ('open', 'submitted')`,
  );
  await db.delete(userNotifications);
  // Issue 29: tasks left open would be swept again by a later test.
  await db.execute(
    sql`update condition_tasks set status = 'not_applicable', completed_at = now() where status = 'open'`,
  );
}

/**
 * A condition with one open task, written directly as the reminder tests need it (issue 29): on
 * `permit`, owned by `ownerUserId`, due on `dueOn` (by the end of that day in the company's zone),
 * or at `dueAt` (a timed task, e.g. after an event; its due_on is then that instant's local date).
 */
export async function insertTask(
  db: Db,
  permit: { id: string; companyId: string },
  opts: {
    title: string;
    ownerUserId: string | null;
    dueOn?: string;
    dueAt?: Date;
    eventId?: string;
    eventKind?: string;
  },
) {
  const timed = !!opts.dueAt;
  const [row] = await queryRows<{ conditionId: string; taskId: string; dueOn: string }>(
    db,
    sql`with co as (select time_zone from companies where id = ${permit.companyId}),
        c as (
          insert into permit_conditions (company_id, permit_id, title, owner_user_id, schedule, due_date,
                                         offset_amount, offset_unit, event_kind)
          values (${permit.companyId}, ${permit.id}, ${opts.title}, ${opts.ownerUserId},
                  ${timed ? "after_event" : "once"}, ${opts.dueOn ?? null}::date,
                  ${timed ? 24 : null}::int, ${timed ? "hours" : null}, ${timed ? (opts.eventKind ?? "Rain ≥ 0.25 in") : null})
          returning id
        ),
        t as (
          insert into condition_tasks (company_id, permit_id, condition_id, occurrence, event_id, due_at, due_on, timed)
          select ${permit.companyId}, ${permit.id}, c.id, ${timed ? null : 0}::int, ${opts.eventId ?? null}::uuid,
                 ${timed ? sql`${opts.dueAt!.toISOString()}::timestamptz` : sql`(${opts.dueOn!}::date + 1)::timestamp at time zone co.time_zone`},
                 ${timed ? sql`(${opts.dueAt!.toISOString()}::timestamptz at time zone co.time_zone)::date` : sql`${opts.dueOn!}::date`},
                 ${timed}
          from c, co
          returning id, condition_id, due_on
        )
        select condition_id as "conditionId", id as "taskId", due_on::text as "dueOn" from t`,
  );
  return row!;
}
