import type { DateOrder } from "../../../shared/domain/document-reading.ts";
import { and, asc, eq, inArray, not, sql } from "drizzle-orm";
import { REMINDER_DAYS } from "../../../shared/domain/constants.ts";
import type { Role } from "../../../shared/domain/roles.ts";
import {
  DEFAULT_ESCALATION,
  NOTIFICATION_MESSAGES,
  type EscalationSettings,
  type NotificationSettings,
  type ReminderSwitches,
  type UpdateNotificationSettings,
} from "../../../shared/schemas/notifications.ts";
import { targetCompanyId, type Actor } from "../../access/actor.ts";
import { hasSettingsCompany, notificationSettingsCan } from "../../access/policies/notification-settings.ts";
import { DIGEST_RECIPIENT_ROLES } from "../../access/policies/reminders.ts";
import type { Db } from "../../db/client.ts";
import { companies, companyPreferences, userNotifications, users } from "../../db/schema.ts";
import { authorize, notFound, validation } from "../../errors.ts";
import { recordEvent } from "../../audit/audit-writer.ts";

type CompanyRow = typeof companies.$inferSelect;

/** No preferences row means every reminder is on (spec section 9). */
export const DEFAULT_SWITCHES: ReminderSwitches = { email30Day: true, email7Day: true, email1Day: true };

/** The switches as the thresholds they enable, e.g. [30, 1]. */
export const enabledThresholds = (s: ReminderSwitches): number[] =>
  REMINDER_DAYS.filter((d) => (d === 30 ? s.email30Day : d === 7 ? s.email7Day : s.email1Day));

/**
 * The company whose notification settings the actor works on: a super-admin names it, a
 * company-admin gets its own (naming another answers 404, like any other company's record).
 * Callers have authorized canManageNotificationSettings.
 */
export async function settingsCompany(
  db: Db,
  actor: Actor,
  requested: string | undefined,
): Promise<CompanyRow> {
  authorize(hasSettingsCompany(actor), NOTIFICATION_MESSAGES.companyMissing);
  const id = targetCompanyId(actor, requested);
  if (requested && requested !== id) throw notFound("Company");
  const [company] = await db.select().from(companies).where(eq(companies.id, id));
  if (!company) throw notFound("Company");
  return company;
}

export async function companySwitches(db: Db, companyId: string): Promise<ReminderSwitches> {
  const [row] = await db
    .select({
      email30Day: companyPreferences.email30Day,
      email7Day: companyPreferences.email7Day,
      email1Day: companyPreferences.email1Day,
    })
    .from(companyPreferences)
    .where(eq(companyPreferences.companyId, companyId));
  return row ?? DEFAULT_SWITCHES;
}

/** Escalation Days and the Overdue digest switch; no preferences row means the defaults (7, on). */
export async function companyEscalation(db: Db, companyId: string): Promise<EscalationSettings> {
  const [row] = await db
    .select({
      escalationDays: companyPreferences.escalationDays,
      overdueDigest: companyPreferences.overdueDigest,
    })
    .from(companyPreferences)
    .where(eq(companyPreferences.companyId, companyId));
  return row ?? DEFAULT_ESCALATION;
}

async function recipientCandidates(db: Db, companyId: string) {
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.role,
      receivesReminders: sql<boolean>`${userNotifications.userId} is not null`,
    })
    .from(users)
    .leftJoin(
      userNotifications,
      and(eq(userNotifications.userId, users.id), eq(userNotifications.companyId, companyId)),
    )
    .where(
      and(eq(users.companyId, companyId), not(users.banned), inArray(users.role, DIGEST_RECIPIENT_ROLES)),
    )
    .orderBy(asc(sql`lower(${users.lastName})`), asc(sql`lower(${users.firstName})`), asc(users.email));
}

export async function loadSettings(
  db: Db,
  actor: Actor,
  company: CompanyRow,
  reminderHour: number,
): Promise<NotificationSettings> {
  const [switches, escalation, candidates] = await Promise.all([
    companySwitches(db, company.id),
    companyEscalation(db, company.id),
    recipientCandidates(db, company.id),
  ]);
  return {
    companyId: company.id,
    companyName: company.name,
    timeZone: company.timeZone,
    reminderHour,
    currency: company.currency,
    dateOrder: company.dateOrder as DateOrder,
    ...switches,
    ...escalation,
    users: candidates.map((u) => ({
      id: u.id,
      name: `${u.firstName} ${u.lastName}`.trim() || u.email,
      email: u.email,
      role: u.role as Role,
      receivesReminders: !!u.receivesReminders,
    })),
    can: notificationSettingsCan(actor, company),
  };
}

/**
 * Saves the switches (and Escalation Days and the Overdue digest switch, when sent) and replaces
 * the recipient list, audited, in one transaction.
 */
export async function saveSettings(
  db: Db,
  actor: Actor,
  company: CompanyRow,
  input: UpdateNotificationSettings,
): Promise<void> {
  const candidates = await recipientCandidates(db, company.id);
  const allowed = new Set(candidates.map((u) => u.id));
  if (input.recipientUserIds.some((id) => !allowed.has(id))) {
    throw validation({ recipientUserIds: "Recipients must be active staff users of this company." });
  }
  const switches: ReminderSwitches = {
    email30Day: input.email30Day,
    email7Day: input.email7Day,
    email1Day: input.email1Day,
  };
  await db.transaction(async (tx) => {
    const beforeEscalation = await companyEscalation(tx, company.id);
    const before = {
      ...(await companySwitches(tx, company.id)),
      ...beforeEscalation,
      recipientUserIds: candidates.filter((u) => u.receivesReminders).map((u) => u.id),
    };
    const escalation: EscalationSettings = {
      escalationDays: input.escalationDays ?? beforeEscalation.escalationDays,
      overdueDigest: input.overdueDigest ?? beforeEscalation.overdueDigest,
    };
    const prefs = { ...switches, ...escalation };
    // The company's currency (issue 12): company admins set it here; left out keeps it.
    const currency = input.currency || company.currency;
    // Issue 28: the company's Date Order, likewise.
    const dateOrder = input.dateOrder ?? (company.dateOrder as DateOrder);
    if (currency !== company.currency || dateOrder !== company.dateOrder) {
      await tx.update(companies).set({ currency, dateOrder }).where(eq(companies.id, company.id));
    }
    await tx
      .insert(companyPreferences)
      .values({ companyId: company.id, ...prefs })
      .onConflictDoUpdate({ target: companyPreferences.companyId, set: prefs });
    await tx.delete(userNotifications).where(eq(userNotifications.companyId, company.id));
    if (input.recipientUserIds.length) {
      await tx
        .insert(userNotifications)
        .values(input.recipientUserIds.map((userId) => ({ userId, companyId: company.id })));
    }
    await recordEvent(tx, actor, {
      action: "notification_settings.update",
      entityType: "company",
      entityId: company.id,
      companyId: company.id,
      details: {
        before: { ...before, currency: company.currency, dateOrder: company.dateOrder },
        after: { ...prefs, currency, dateOrder, recipientUserIds: input.recipientUserIds },
      },
    });
  });
}
