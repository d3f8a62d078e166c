import { z } from "zod";
import { DATE_ORDERS } from "../domain/document-reading.ts";
import { DEFAULT_ESCALATION_DAYS, ESCALATION_DAYS_MAX } from "../domain/lifecycle.ts";
import { ROLES } from "../domain/roles.ts";
import { IdSchema } from "./common.ts";
import { CurrencySchema } from "./companies.ts";

/** `?company_id=`: the company a super-admin works on; everyone else is held to their own. */
export const CompanyQuerySchema = z.object({ company_id: IdSchema.optional() });

/** A company user who may receive reminders: active staff (client-users never get company-wide digests). */
export const RecipientCandidateSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  receivesReminders: z.boolean(),
});
export type RecipientCandidate = z.infer<typeof RecipientCandidateSchema>;

export const ReminderSwitchesSchema = z.object({
  email30Day: z.boolean(),
  email7Day: z.boolean(),
  email1Day: z.boolean(),
});
export type ReminderSwitches = z.infer<typeof ReminderSwitchesSchema>;

export const ESCALATION_DAYS_MESSAGE = `Escalation Days must be a whole number from 1 to ${ESCALATION_DAYS_MAX}`;

/**
 * Escalation and the overdue digest (issue 11): company admins hear of a permit nobody acted on
 * 'Escalation Days' before its expiry (or renew-by), and daily of expired permits still open.
 */
export const EscalationSettingsSchema = z.object({
  escalationDays: z.number().int().min(1).max(ESCALATION_DAYS_MAX),
  overdueDigest: z.boolean(),
});
export type EscalationSettings = z.infer<typeof EscalationSettingsSchema>;
export const DEFAULT_ESCALATION: EscalationSettings = {
  escalationDays: DEFAULT_ESCALATION_DAYS,
  overdueDigest: true,
};

/** GET/PUT /api/notifications/settings: the company's switches and its possible recipients. */
export const NotificationSettingsSchema = ReminderSwitchesSchema.extend({
  ...EscalationSettingsSchema.shape,
  companyId: z.uuid(),
  companyName: z.string(),
  /** The zone and local hour at which the company's reminders go out each day. */
  timeZone: z.string(),
  reminderHour: z.number().int(),
  /** The company's currency (ISO 4217), which company admins set here (issue 12). */
  currency: z.string(),
  /** The company's 'Date Order' for numeric dates in documents (issue 28), which company admins set here too. */
  dateOrder: z.enum(DATE_ORDERS),
  users: z.array(RecipientCandidateSchema),
  can: z.object({ edit: z.boolean(), sendTestEmail: z.boolean() }),
});
export type NotificationSettings = z.infer<typeof NotificationSettingsSchema>;

/** Body of PUT /api/notifications/settings; the recipient list replaces the company's whole list. */
export const UpdateNotificationSettingsSchema = ReminderSwitchesSchema.extend({
  /** Left out: kept as they are (older clients send only the switches and recipients). */
  escalationDays: z
    .number({ message: ESCALATION_DAYS_MESSAGE })
    .int({ message: ESCALATION_DAYS_MESSAGE })
    .min(1, { message: ESCALATION_DAYS_MESSAGE })
    .max(ESCALATION_DAYS_MAX, { message: ESCALATION_DAYS_MESSAGE })
    .optional(),
  overdueDigest: z.boolean().optional(),
  /** The company's currency (ISO 4217); left out or empty: unchanged. */
  currency: CurrencySchema.optional(),
  /** The company's 'Date Order' (issue 28); left out: unchanged. */
  dateOrder: z.enum(DATE_ORDERS, { message: "Date Order must be MDY or DMY" }).optional(),
  recipientUserIds: z
    .array(IdSchema)
    .max(1000, { message: "Too many recipients" })
    .refine((ids) => new Set(ids).size === ids.length, { message: "A recipient is listed twice" }),
});
export type UpdateNotificationSettings = z.infer<typeof UpdateNotificationSettingsSchema>;

/** POST /api/notifications/test-email: where the test went. */
export const TestEmailResultSchema = z.object({ to: z.string(), messageId: z.string() });
export type TestEmailResult = z.infer<typeof TestEmailResultSchema>;

export const NOTIFICATION_MESSAGES = {
  saved: "Notification settings saved successfully.",
  companiesFailed: "Unable to load companies.",
  userNotLoaded: "User not loaded",
  companyMissing: "Your user account is missing a company assignment. Please contact an administrator.",
} as const;
