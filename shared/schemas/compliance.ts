import { z } from "zod";

// The compliance report (issue 30): what the compliance packet (PDF) and the client status page
// show, the same summary and tables for both. Read-only facts: never comments, attachments, users'
// e-mails, collateral or surety limits (docs/SECURITY.md, "Status links").

export const ComplianceSummarySchema = z.object({
  total: z.number().int(),
  /** Counts by the record's one status ("Issued", "Expired", "Active · past expiry", ...). */
  by_status: z.array(z.object({ status: z.string(), count: z.number().int() })),
  expired: z.number().int(),
  expiring_30_days: z.number().int(),
  renewal_due: z.number().int(),
  open_requests: z.number().int(),
  overdue_tasks: z.number().int(),
});

export const CompliancePermitSchema = z.object({
  number: z.string(),
  name: z.string(),
  agency: z.string().nullable(),
  project: z.string().nullable(),
  status: z.string(),
  issued: z.string().nullable(),
  expires: z.string().nullable(),
  /** Days from today (the company's zone) to the expiry; null when closed or without one. */
  days_left: z.number().int().nullable(),
  responsible: z.string().nullable(),
  /** What needs attention, in words ("Expired", "Renewal overdue", "2 overdue tasks"): never colour alone. */
  flags: z.array(z.string()),
});

export const ComplianceBondSchema = z.object({
  number: z.string(),
  name: z.string(),
  project: z.string().nullable(),
  surety: z.string().nullable(),
  type: z.string().nullable(),
  status: z.string(),
  current_amount: z.string().nullable(),
  expires: z.string().nullable(),
  days_left: z.number().int().nullable(),
  flags: z.array(z.string()),
});

export const ComplianceReportSchema = z.object({
  company: z.object({ name: z.string(), has_logo: z.boolean() }),
  /** The project's name and number, or null for a client's report (across its projects). */
  project: z.object({ name: z.string(), number: z.string().nullable() }).nullable(),
  client: z.object({ name: z.string() }).nullable(),
  /** The moment the report was read (ISO), and how it reads in the company's zone. */
  as_of: z.string(),
  as_of_text: z.string(),
  time_zone: z.string(),
  currency: z.string().nullable(),
  summary: ComplianceSummarySchema,
  permits: z.array(CompliancePermitSchema),
  bonds: z.array(ComplianceBondSchema),
});
export type ComplianceReport = z.infer<typeof ComplianceReportSchema>;
export type CompliancePermit = z.infer<typeof CompliancePermitSchema>;
export type ComplianceBond = z.infer<typeof ComplianceBondSchema>;

/** Status links (Share Status). */
export const STATUS_LINK_DEFAULT_DAYS = 30;
export const STATUS_LINK_MAX_DAYS = 365;

export const StatusLinkCreateSchema = z.object({
  expires_in_days: z
    .preprocess(
      (v) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
      z
        .number({ message: "Expiry must be a whole number of days." })
        .int("Expiry must be a whole number of days.")
        .min(1, "Expiry must be at least 1 day.")
        .max(STATUS_LINK_MAX_DAYS, `Expiry must be at most ${STATUS_LINK_MAX_DAYS} days.`),
    )
    .default(STATUS_LINK_DEFAULT_DAYS),
});

export const StatusLinkSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  created_by: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  view_count: z.number().int(),
  last_viewed_at: z.string().nullable(),
  state: z.enum(["active", "expired", "revoked"]),
});
export type StatusLink = z.infer<typeof StatusLinkSchema>;
export const StatusLinkListSchema = z.object({ links: z.array(StatusLinkSchema) });
/** A new link: its URL is shown once (only its hash is kept). */
export const StatusLinkCreatedSchema = z.object({ link: StatusLinkSchema, url: z.string() });

export const StatusLinkGoneSchema = z.object({
  state: z.enum(["expired", "revoked"]),
  company: z.object({ name: z.string() }),
});

export const PacketRecipientsSchema = z.object({ emails: z.array(z.string()) });
export const PacketRecipientsInputSchema = z.object({
  emails: z
    .array(z.string().trim().toLowerCase().email("Enter valid e-mail addresses."))
    .max(20, "At most 20 recipients."),
});
