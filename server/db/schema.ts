/**
 * The whole database schema (spec section 3 with DESIGN.md section 4). Migrations in
 * ./migrations are generated from this file by `npm run db:generate` and are forward-only.
 *
 * Conventions: UUID keys from gen_random_uuid(); `company_id NOT NULL` on every tenant table;
 * calendar dates as `date` (read back as "YYYY-MM-DD" strings); timestamps with time zone.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

const id = () => uuid("id").primaryKey().defaultRandom();
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
const day = (name: string) => date(name, { mode: "string" });

// ---------------------------------------------------------------------------------------------
// Companies (tenants)

export const companies = pgTable(
  "companies",
  {
    id: id(),
    name: text("name").notNull(),
    slug: text("slug").notNull().unique(),
    adminUserId: uuid("admin_user_id"),
    address: text("address"),
    phone: text("phone"),
    website: text("website"),
    contactName: text("contact_name"),
    contactEmail: text("contact_email"),
    /** Storage key of the logo (server/storage/storage.ts); the public URL is /api/companies/{id}/logo. */
    logoKey: text("logo_key"),
    logoContentType: text("logo_content_type"),
    /** The logo's SHA-256 (hex) and size as stored, checked on every read; null for logos from before them. */
    logoSha256: text("logo_sha256"),
    logoSize: integer("logo_size"),
    /** IANA zone in which "today", expiring-soon and reminders are computed. */
    timeZone: text("time_zone").notNull().default("UTC"),
    /** The company's staff must sign in with a second factor (decision 0011). */
    requireTwoFactor: boolean("require_two_factor").notNull().default(false),
    /** ISO 4217 code of the company's amounts (bonds); three upper-case letters (issue 12). */
    currency: text("currency").notNull().default("USD"),
    /**
     * How the company writes a numeric date (issue 28): 'MDY' reads 03/04/2026 as March 4, 'DMY' as
     * 3 April. Decides the document reader's ambiguous dates.
     */
    dateOrder: text("date_order").notNull().default("MDY"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("companies_currency_check", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check("companies_date_order_check", sql`${t.dateOrder} in ('MDY','DMY')`),
    check("companies_logo_sha256_check", sql`${t.logoSha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Users and better-auth's tables (written by hand: its CLI does not run on Node 20).
// better-auth reads and writes these through the drizzle adapter by their TypeScript keys.

export const users = pgTable(
  "users",
  {
    id: id(),
    /** better-auth requires a display name; kept as "first last". */
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    role: text("role").notNull().default("company-user"),
    /** Null only for super-admins, who belong to no company. */
    companyId: uuid("company_id").references(() => companies.id, { onDelete: "cascade" }),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    phone: text("phone"),
    title: text("title"),
    mustResetPassword: boolean("must_reset_password").notNull().default(false),
    /** "Disabled" in the product; better-auth's admin plugin calls it banned. */
    banned: boolean("banned").notNull().default(false),
    banReason: text("ban_reason"),
    banExpires: timestamp("ban_expires", { withTimezone: true }),
    /** Private token of the user's calendar feed (issue: reminders), null when revoked. */
    calendarToken: text("calendar_token").unique(),
    /** better-auth's two-factor plugin: true once an authenticator app is confirmed (two_factors). */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("users_company_idx").on(t.companyId),
    check("users_role_check", sql`${t.role} in ('super-admin','company-admin','company-user','client-user')`),
    check("users_company_check", sql`${t.role} = 'super-admin' or ${t.companyId} is not null`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    token: text("token").notNull().unique(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    /** Set on an impersonation session: the super-admin behind it. */
    impersonatedBy: uuid("impersonated_by").references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: id(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("accounts_user_idx").on(t.userId)],
);

export const verifications = pgTable("verifications", {
  id: id(),
  identifier: text("identifier").notNull(),
  value: text("value").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * better-auth's two-factor plugin ("twoFactor"): one row per user with an authenticator app. The
 * TOTP secret and the recovery codes are encrypted with the app secret; `verified` is false while an
 * enrolment waits for its first code. The failure counter and lock are the plugin's per-account lockout.
 */
export const twoFactors = pgTable("two_factors", {
  id: id(),
  userId: uuid("user_id")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  backupCodes: text("backup_codes").notNull(),
  verified: boolean("verified").notNull().default(true),
  failedVerificationCount: integer("failed_verification_count").notNull().default(0),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  /** The last TOTP time step accepted (sign-in or enrolment): that step and earlier ones are refused. */
  lastTotpStep: bigint("last_totp_step", { mode: "number" }),
  /**
   * Wrong codes in a row at the sign-in code step (ours, not better-auth's, which clears its own
   * count when its short lock ends): only a verified code or an admin's reset (which deletes the
   * row) clears it; at TWO_FACTOR_FAILURE_LIMIT the code step is locked.
   */
  codeFailures: integer("code_failures").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Sign-in attempt counters, per IP and per account, shared by every app instance. */
export const authRateLimits = pgTable("auth_rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
});

// ---------------------------------------------------------------------------------------------
// Clients, projects, permits

export const clients = pgTable(
  "clients",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("clients_company_name_uq").on(t.companyId, sql`lower(${t.name})`)],
);

/** A client-user's visible clients (the spec's client_filter of names, as ids). */
export const userClients = pgTable(
  "user_clients",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.clientId] }), index("user_clients_client_idx").on(t.clientId)],
);

export const projects = pgTable(
  "projects",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    clientId: uuid("client_id").references(() => clients.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    projectNumber: text("project_number"),
    status: text("status").notNull().default("Not Started"),
    startDate: day("start_date"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("projects_company_name_idx").on(t.companyId, t.name),
    index("projects_company_number_idx").on(t.companyId, t.projectNumber),
    index("projects_client_idx").on(t.clientId),
  ],
);

export const permits = pgTable(
  "permits",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    /** Copied from the project when there is one; kept in step by the projects service. */
    clientId: uuid("client_id").references(() => clients.id, { onDelete: "set null" }),
    permitNumber: text("permit_number").notNull(),
    permitName: text("permit_name").notNull(),
    agency: text("agency"),
    status: text("status").notNull().default("Required"),
    archived: boolean("archived").notNull().default(false),
    recordType: text("record_type").notNull().default("permit"),
    permitApplicationDate: day("permit_application_date"),
    issueDate: day("issue_date"),
    expirationDate: day("expiration_date"),
    startDate: day("start_date"),
    closeDate: day("close_date"),
    permitExpires: boolean("permit_expires").notNull().default(true),
    phase: text("phase"),
    aka: text("aka"),
    grantorLink: text("grantor_link"),
    bondAmount: numeric("bond_amount", { precision: 14, scale: 2 }),
    suretyCompany: text("surety_company"),
    bondNumber: text("bond_number"),
    guaranteeType: text("guarantee_type"),
    /** A staff user of the company who answers for this permit; gets its reminders too (issue 11). */
    responsibleUserId: uuid("responsible_user_id").references(() => users.id, { onDelete: "set null" }),
    /** 'fixed': the expiration date as entered; 'after_inspection': expiry_days after the last passed inspection. */
    expiryRule: text("expiry_rule").notNull().default("fixed"),
    expiryDays: integer("expiry_days"),
    /** Days before expiry by which the agency wants the renewal; reminders then count down to the renew-by date. */
    renewalLeadDays: integer("renewal_lead_days"),
    /** Expiration date minus the lead time, when a lead time is set. */
    renewByDate: date("renew_by_date", { mode: "string" }).generatedAlwaysAs(
      sql`case when renewal_lead_days is null then null else expiration_date - renewal_lead_days end`,
    ),
    /** The date reminders and escalation count down to: the renew-by date when a lead time is set, else the expiry. */
    countdownDate: date("countdown_date", { mode: "string" }).generatedAlwaysAs(
      sql`expiration_date - coalesce(renewal_lead_days, 0)`,
    ),
    /** The current term (1 = the original; each renewal adds one). Extensions keep the term. */
    termNo: integer("term_no").notNull().default(1),
    /** Who said "I'm on it" for the current term; cleared by a renewal or an extension. */
    acknowledgedById: uuid("acknowledged_by_id").references(() => users.id, { onDelete: "set null" }),
    acknowledgedByName: text("acknowledged_by_name"),
    acknowledgedAt: timestamp("acknowledged_at", { withTimezone: true }),
    /** How a closed permit ended (set with close_date by 'Close Permit'). */
    finalStatus: text("final_status"),
    /** A bond's surety (issue 12); surety_company keeps the name typed before sureties existed. */
    suretyId: uuid("surety_id").references(() => sureties.id, { onDelete: "no action" }),
    /** A bond's status from its ledger (active, reduced, released, cancelled, claimed); null for permits. */
    bondStatus: text("bond_status"),
    /** A bond's amount now: the ledger's last amount_after, written in the same transaction as each entry. */
    currentAmount: numeric("current_amount", { precision: 14, scale: 2 }),
    /** A maintenance bond: the performance bond it follows ('Start Maintenance Bond'). */
    maintenanceOfId: uuid("maintenance_of_id").references((): AnyPgColumn => permits.id, {
      onDelete: "set null",
    }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("permits_company_order_idx").on(t.companyId, t.createdAt, t.id),
    index("permits_company_responsible_idx").on(t.companyId, t.responsibleUserId),
    index("permits_company_renew_by_idx").on(t.companyId, t.renewByDate),
    index("permits_company_countdown_idx").on(t.companyId, t.countdownDate),
    check("permits_expiry_rule_check", sql`${t.expiryRule} in ('fixed','after_inspection')`),
    check(
      "permits_expiry_days_check",
      sql`(${t.expiryRule} = 'fixed' and ${t.expiryDays} is null) or (${t.expiryRule} = 'after_inspection' and ${t.expiryDays} between 1 and 3650)`,
    ),
    check(
      "permits_lead_days_check",
      sql`${t.renewalLeadDays} is null or ${t.renewalLeadDays} between 0 and 365`,
    ),
    check("permits_term_no_check", sql`${t.termNo} >= 1`),
    check(
      "permits_final_status_check",
      sql`${t.finalStatus} is null or ${t.finalStatus} in ('Finaled','Completed','Withdrawn','Cancelled','Expired')`,
    ),
    index("permits_company_visible_idx").on(t.companyId, t.archived, t.status),
    index("permits_company_expiration_idx").on(t.companyId, t.expirationDate),
    index("permits_company_name_idx").on(t.companyId, t.permitName),
    index("permits_company_number_idx").on(t.companyId, t.permitNumber),
    index("permits_company_agency_idx").on(t.companyId, t.agency),
    index("permits_company_application_idx").on(t.companyId, t.permitApplicationDate),
    index("permits_project_idx").on(t.projectId),
    index("permits_client_idx").on(t.clientId),
    index("permits_expiration_idx").on(t.expirationDate),
    check("permits_record_type_check", sql`${t.recordType} in ('permit','bond')`),
    check("permits_status_check", sql`${t.status} in ('Required','In Waiting','Pending','Expired','N/A')`),
    check("permits_bond_amount_check", sql`${t.bondAmount} is null or ${t.bondAmount} >= 0`),
    // Bonds (issue 12): the Bonds page's aggregates read these without a ledger scan.
    index("permits_company_bond_idx")
      .on(t.companyId, t.bondStatus, t.suretyId, t.currentAmount)
      .where(sql`record_type = 'bond'`),
    index("permits_surety_idx").on(t.suretyId),
    uniqueIndex("permits_maintenance_of_uq").on(t.maintenanceOfId),
    check(
      "permits_bond_status_check",
      sql`${t.bondStatus} is null or (${t.recordType} = 'bond' and ${t.bondStatus} in ('active','reduced','released','cancelled','claimed'))`,
    ),
    check("permits_current_amount_check", sql`${t.currentAmount} is null or ${t.currentAmount} >= 0`),
  ],
);

/**
 * A company's surety companies (issue 12): a bond's 'Surety Company' is one of these. The limits
 * are the company's bonding capacity with the surety; only admins see them.
 */
export const sureties = pgTable(
  "sureties",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    contactName: text("contact_name"),
    phone: text("phone"),
    email: text("email"),
    singleLimit: numeric("single_limit", { precision: 14, scale: 2 }),
    aggregateLimit: numeric("aggregate_limit", { precision: 14, scale: 2 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // A name once per company, any case (typed names and imports are matched this way).
    uniqueIndex("sureties_company_name_uq").on(t.companyId, sql`lower(${t.name})`),
    check("sureties_single_limit_check", sql`${t.singleLimit} is null or ${t.singleLimit} >= 0`),
    check("sureties_aggregate_limit_check", sql`${t.aggregateLimit} is null or ${t.aggregateLimit} >= 0`),
  ],
);

/**
 * A bond's ledger (issue 12): the original amount, then riders, reductions, release, cancellation,
 * claims, each with the signed change and the amount after it. Append-only: a trigger (migration
 * 0010) refuses UPDATE and direct DELETE; a mistake is undone by a reversal, a new entry naming it.
 * The bond's permits.current_amount and bond_status are written in the same transaction.
 */
export const bondLedgerEntries = pgTable(
  "bond_ledger_entries",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    permitId: uuid("permit_id")
      .notNull()
      .references(() => permits.id, { onDelete: "cascade" }),
    /** Ledger order. */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    /** original, rider, reduction, release, cancellation, claim, reversal */
    kind: text("kind").notNull(),
    /** Signed: what this entry added to the amount. */
    change: numeric("change", { precision: 14, scale: 2 }).notNull(),
    amountAfter: numeric("amount_after", { precision: 14, scale: 2 }).notNull(),
    effectiveDate: day("effective_date").notNull(),
    /** Reductions: when the obligee accepted the reduction. */
    obligeeAcceptanceDate: day("obligee_acceptance_date"),
    /** Reductions by percent: the percent of the amount before it. */
    percent: numeric("percent", { precision: 5, scale: 2 }),
    reason: text("reason"),
    /** An attachment of the same permit (checked by the service). */
    documentId: uuid("document_id").references(() => attachments.id, { onDelete: "set null" }),
    /** A reversal: the entry it undoes; each entry is reversed at most once. */
    reversesId: uuid("reverses_id")
      .unique("bond_ledger_entries_reverses_uq")
      .references((): AnyPgColumn => bondLedgerEntries.id, { onDelete: "cascade" }),
    /** No foreign key (as the audit): the ledger keeps who wrote it after the user is gone. */
    createdBy: uuid("created_by"),
    createdByName: text("created_by_name").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    index("bond_ledger_entries_permit_idx").on(t.permitId, t.seq),
    uniqueIndex("bond_ledger_entries_original_uq")
      .on(t.permitId)
      .where(sql`kind = 'original'`),
    check(
      "bond_ledger_entries_kind_check",
      sql`${t.kind} in ('original','rider','reduction','release','cancellation','claim','reversal')`,
    ),
    check("bond_ledger_entries_amount_check", sql`${t.amountAfter} >= 0`),
    check(
      "bond_ledger_entries_reverses_check",
      sql`(${t.kind} = 'reversal') = (${t.reversesId} is not null)`,
    ),
    check(
      "bond_ledger_entries_percent_check",
      sql`${t.percent} is null or (${t.kind} = 'reduction' and ${t.percent} > 0 and ${t.percent} < 100)`,
    ),
    check(
      "bond_ledger_entries_acceptance_check",
      sql`${t.obligeeAcceptanceDate} is null or ${t.kind} = 'reduction'`,
    ),
  ],
);

/** Collateral the surety holds against a bond (issue 12); released with or after the bond. */
export const bondCollateral = pgTable(
  "bond_collateral",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    permitId: uuid("permit_id")
      .notNull()
      .references(() => permits.id, { onDelete: "cascade" }),
    /** letter_of_credit, cash, other */
    form: text("form").notNull(),
    amount: numeric("amount", { precision: 14, scale: 2 }).notNull(),
    heldSince: day("held_since").notNull(),
    releasedOn: day("released_on"),
    note: text("note"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByName: text("created_by_name").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("bond_collateral_permit_idx").on(t.permitId, t.releasedOn, t.amount),
    index("bond_collateral_company_idx").on(t.companyId),
    check("bond_collateral_form_check", sql`${t.form} in ('letter_of_credit','cash','other')`),
    check("bond_collateral_amount_check", sql`${t.amount} > 0`),
    check(
      "bond_collateral_released_check",
      sql`${t.releasedOn} is null or ${t.releasedOn} >= ${t.heldSince}`,
    ),
  ],
);

/**
 * A permit's history of terms (issue 11): the original term, each renewal (a new term) and each
 * extension (same term, later date), in the order they happened. Rows are never updated except to
 * close a term (ended_on) when a renewal supersedes it.
 */
export const permitTerms = pgTable(
  "permit_terms",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    permitId: uuid("permit_id")
      .notNull()
      .references(() => permits.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    termNo: integer("term_no").notNull(),
    /** original, renewal, extension */
    kind: text("kind").notNull(),
    permitNumber: text("permit_number").notNull(),
    issueDate: day("issue_date"),
    expirationDate: day("expiration_date"),
    /** The day this term ended (the renewal that superseded it); null while it runs. */
    endedOn: day("ended_on"),
    renewalFee: numeric("renewal_fee", { precision: 12, scale: 2 }),
    note: text("note"),
    /** An extension's reason (for an inspection-driven one, the inspection). */
    reason: text("reason"),
    /**
     * Issue 25: the fee, the note and the reason are each staff-only ('Internal') or shown to the
     * client-users who see the permit, like comments. Unset means internal (migration 0013: earlier
     * fees, notes and typed reasons became internal; an inspection's reason did not).
     */
    renewalFeeInternal: boolean("renewal_fee_internal").notNull().default(true),
    noteInternal: boolean("note_internal").notNull().default(true),
    reasonInternal: boolean("reason_internal").notNull().default(true),
    inspectionId: uuid("inspection_id"),
    attachmentId: uuid("attachment_id"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByName: text("created_by_name").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    index("permit_terms_permit_idx").on(t.permitId, t.seq),
    check("permit_terms_kind_check", sql`${t.kind} in ('original','renewal','extension')`),
    check("permit_terms_fee_check", sql`${t.renewalFee} is null or ${t.renewalFee} >= 0`),
  ],
);

/** Inspections recorded on a permit (issue 11); a passed one may move the expiry. */
export const permitInspections = pgTable(
  "permit_inspections",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    permitId: uuid("permit_id")
      .notNull()
      .references(() => permits.id, { onDelete: "cascade" }),
    inspectionType: text("inspection_type").notNull(),
    inspectedOn: day("inspected_on").notNull(),
    /** Passed, Failed, Partial, Cancelled */
    result: text("result").notNull(),
    inspector: text("inspector"),
    notes: text("notes"),
    /** Issue 25: the notes are staff-only ('Internal') or shown to client-users; unset means internal. */
    notesInternal: boolean("notes_internal").notNull().default(true),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByName: text("created_by_name").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    index("permit_inspections_permit_idx").on(t.permitId, t.inspectedOn),
    check("permit_inspections_result_check", sql`${t.result} in ('Passed','Failed','Partial','Cancelled')`),
  ],
);

export const comments = pgTable(
  "comments",
  {
    id: id(),
    permitId: uuid("permit_id")
      .notNull()
      .references(() => permits.id, { onDelete: "cascade" }),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    userName: text("user_name").notNull(),
    text: text("text").notNull(),
    isInternal: boolean("is_internal").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("comments_permit_idx").on(t.permitId, t.createdAt)],
);

export const attachments = pgTable(
  "attachments",
  {
    id: id(),
    permitId: uuid("permit_id")
      .notNull()
      .references(() => permits.id, { onDelete: "cascade" }),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** The uploader's file name, for display and Content-Disposition only; never a path. */
    filename: text("filename").notNull(),
    /** Where the bytes are: `s3:<object key>` in the bucket, else a path under DATA_DIR/files (storage.ts). */
    storageKey: text("storage_key").notNull(),
    contentType: text("content_type").notNull(),
    /** The stored bytes' size and SHA-256 (hex), checked on every download. */
    size: integer("size").notNull(),
    /**
     * Null only for files stored before issue 26, until `npm run storage:migrate` or their first
     * download records it.
     */
    sha256: text("sha256"),
    archived: boolean("archived").notNull().default(false),
    /**
     * 'file': the permit's own files (a new one archives the current ones; its file history);
     * 'ledger_document': a bond ledger entry's document (a rider, a release letter...), listed on its
     * ledger row only, never archiving nor archived.
     */
    kind: text("kind").notNull().default("file"),
    uploadedBy: uuid("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("attachments_permit_idx").on(t.permitId, t.createdAt),
    check("attachments_kind_check", sql`${t.kind} in ('file','ledger_document')`),
    check("attachments_sha256_check", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Audit (append-only: a trigger in the migrations refuses UPDATE and direct DELETE)

export const permitAudit = pgTable(
  "permit_audit",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** No foreign key: the trail of a deleted permit survives it. */
    permitId: uuid("permit_id").notNull(),
    userId: uuid("user_id"),
    userName: text("user_name").notNull(),
    impersonatorId: uuid("impersonator_id"),
    impersonatorName: text("impersonator_name"),
    action: text("action").notNull(),
    field: text("field"),
    oldValue: text("old_value"),
    newValue: text("new_value"),
    /**
     * Issue 25: the entry records an internal note, fee, reason or comment, so a client-user never
     * reads it. Null on entries written before the flag (audit rows are never updated): those are
     * classified by their action and field (server/features/audit/audit.service.ts).
     */
    internal: boolean("internal"),
    /**
     * Issue 28: where an accepted value came from, e.g. "from document site-plan.pdf, page 2";
     * null for everything typed by a person.
     */
    source: text("source"),
    timestamp: timestamp("timestamp", { withTimezone: true }).notNull().defaultNow(),
    /** Insertion order: timestamps of quick successive writes can be equal (PGlite's clock is coarse). */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
  },
  (t) => [index("permit_audit_permit_idx").on(t.permitId, t.seq)],
);

/** Audit of everything that is not a permit: impersonation, users, companies, settings. */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: id(),
    companyId: uuid("company_id").references(() => companies.id, { onDelete: "cascade" }),
    actorId: uuid("actor_id"),
    actorName: text("actor_name").notNull(),
    impersonatorId: uuid("impersonator_id"),
    impersonatorName: text("impersonator_name"),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id"),
    details: jsonb("details"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_events_company_idx").on(t.companyId, t.createdAt)],
);

// ---------------------------------------------------------------------------------------------
// Templates, notification settings, reminder deliveries

export const permitTemplates = pgTable(
  "permit_templates",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    agency: text("agency"),
    status: text("status").notNull().default("Required"),
    active: boolean("active").notNull().default(true),
    /** Defaults for the permits made from this template (issue 11). */
    expiryRule: text("expiry_rule").notNull().default("fixed"),
    expiryDays: integer("expiry_days"),
    renewalLeadDays: integer("renewal_lead_days"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("permit_templates_company_idx").on(t.companyId, t.name),
    check("permit_templates_expiry_rule_check", sql`${t.expiryRule} in ('fixed','after_inspection')`),
    check(
      "permit_templates_expiry_days_check",
      sql`(${t.expiryRule} = 'fixed' and ${t.expiryDays} is null) or (${t.expiryRule} = 'after_inspection' and ${t.expiryDays} between 1 and 3650)`,
    ),
    check(
      "permit_templates_lead_days_check",
      sql`${t.renewalLeadDays} is null or ${t.renewalLeadDays} between 0 and 365`,
    ),
    // A name once per company, any case: the rule holds under concurrent creates (a violation answers 409).
    uniqueIndex("permit_templates_company_name_uq").on(t.companyId, sql`lower(${t.name})`),
    check("permit_templates_status_check", sql`${t.status} in ('Required','N/A')`),
  ],
);

export const companyPreferences = pgTable("company_preferences", {
  companyId: uuid("company_id")
    .primaryKey()
    .references(() => companies.id, { onDelete: "cascade" }),
  email30Day: boolean("email_30_day").notNull().default(true),
  email7Day: boolean("email_7_day").notNull().default(true),
  email1Day: boolean("email_1_day").notNull().default(true),
  /** Company admins hear of a permit this many days before its expiry (or renew-by) if nobody acted. */
  escalationDays: integer("escalation_days").notNull().default(7),
  /** A daily digest of expired permits that are still open, to company admins. */
  overdueDigest: boolean("overdue_digest").notNull().default(true),
  updatedAt: updatedAt(),
});

/** Users who receive reminder e-mails. */
export const userNotifications = pgTable(
  "user_notifications",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
  },
  (t) => [index("user_notifications_company_idx").on(t.companyId)],
);

/**
 * One row per (permit, threshold, expiration date, recipient): the unique key makes a reminder
 * impossible to record, and so to send, twice (DESIGN.md section 5).
 */
export const reminderDeliveries = pgTable(
  "reminder_deliveries",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** The permit; null for an overdue digest, which lists the company's overdue permits when it is sent. */
    permitId: uuid("permit_id").references(() => permits.id, { onDelete: "cascade" }),
    threshold: integer("threshold").notNull(),
    expirationDate: day("expiration_date").notNull(),
    recipientUserId: uuid("recipient_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    recipientEmail: text("recipient_email").notNull(),
    /** The company-local date on which the reminder became due. */
    dueDate: day("due_date").notNull(),
    /** pending, sending, sent, failed */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    lastError: text("last_error"),
    messageId: text("message_id"),
    /**
     * reminder (30/7/1 days before), escalation (to company admins when nobody acted, once per
     * term), overdue (to company admins, one digest a day while expired permits stay open). Issue 11.
     * overdue_request (issue 27): one a day to each company admin, and to the responsible person of
     * a permit, while a document request is past its due date and still open or awaiting review.
     */
    kind: text("kind").notNull().default("reminder"),
    /** The permit's term the delivery belongs to. */
    termNo: integer("term_no").notNull().default(1),
    /**
     * Issue 29: the condition task a 'task_due' (to its owner, 7 days ahead), 'task_overdue' (to its
     * owner, once overdue) or 'task_escalation' (to the company admins, Escalation Days after it fell
     * overdue) delivery is about, once per task, kind and recipient; in the owner's daily digest.
     */
    taskId: uuid("task_id").references((): AnyPgColumn => conditionTasks.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    // Exactly once per (permit, term, kind, recipient, day), each kind by its own key.
    uniqueIndex("reminder_deliveries_key_uq")
      .on(t.permitId, t.threshold, t.expirationDate, t.recipientUserId)
      .where(sql`kind = 'reminder'`),
    uniqueIndex("reminder_deliveries_escalation_uq")
      .on(t.permitId, t.termNo, t.recipientUserId)
      .where(sql`kind = 'escalation'`),
    // One overdue digest per admin per day, listing every overdue permit once (not a row per permit per
    // day: a company that leaves hundreds of permits expired would add hundreds of rows a day).
    uniqueIndex("reminder_deliveries_overdue_uq")
      .on(t.recipientUserId, t.dueDate)
      .where(sql`kind = 'overdue'`),
    // One 'Overdue request' digest row per recipient per day, listing the requests when sent (as overdue).
    uniqueIndex("reminder_deliveries_overdue_request_uq")
      .on(t.recipientUserId, t.dueDate)
      .where(sql`kind = 'overdue_request'`),
    check(
      "reminder_deliveries_permit_check",
      sql`(${t.kind} in ('overdue','overdue_request')) = (${t.permitId} is null)`,
    ),
    check(
      "reminder_deliveries_kind_check",
      sql`${t.kind} in ('reminder','escalation','overdue','overdue_request','task_due','task_overdue','task_escalation')`,
    ),
    check(
      "reminder_deliveries_task_check",
      sql`(${t.kind} in ('task_due','task_overdue','task_escalation')) = (${t.taskId} is not null)`,
    ),
    uniqueIndex("reminder_deliveries_task_uq")
      .on(t.taskId, t.kind, t.recipientUserId)
      .where(sql`task_id is not null`),
    index("reminder_deliveries_pending_idx").on(t.status, t.nextAttemptAt),
    index("reminder_deliveries_company_idx").on(t.companyId, t.createdAt),
  ],
);

// ---------------------------------------------------------------------------------------------
// Saved views of the All Permits list (issue 14)

/**
 * A user's own named filters of the All Permits list: the URL's filter parameters (checked with
 * the list's query schema on save). Private to the user; the company column (null for a
 * super-admin, who has none) lets a company's deletion take its users' views with it.
 */
export const savedViews = pgTable(
  "saved_views",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    companyId: uuid("company_id").references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    params: jsonb("params").$type<Record<string, string>>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // A name once per user, any case; the list reads by user in name order.
    uniqueIndex("saved_views_user_name_uq").on(t.userId, sql`lower(${t.name})`),
    index("saved_views_user_idx").on(t.userId, t.name),
  ],
);

// ---------------------------------------------------------------------------------------------
// Scheduled jobs that run once across every app node (issue 26)

/**
 * One row per run of a job that must happen once whatever the number of app nodes (the nightly
 * backup): the unique (job, run_key) is the claim, so the node whose insert lands runs it and the
 * others skip; the row then records the result the admin area and /metrics show. run_key is the
 * night ("2026-11-27") for the nightly backup, "manual-<time>" for one taken by hand.
 */
export const jobRuns = pgTable(
  "job_runs",
  {
    id: id(),
    job: text("job").notNull(),
    runKey: text("run_key").notNull(),
    /** running, succeeded, failed */
    status: text("status").notNull().default("running"),
    /** Which node ran it (host name and process id), for the operator reading the log. */
    node: text("node").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** The backup's folder name and its size in bytes. */
    location: text("location"),
    sizeBytes: bigint("size_bytes", { mode: "number" }),
    error: text("error"),
  },
  (t) => [
    uniqueIndex("job_runs_job_run_key_uq").on(t.job, t.runKey),
    index("job_runs_job_started_idx").on(t.job, t.startedAt),
    check("job_runs_status_check", sql`${t.status} in ('running','succeeded','failed')`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Outside parties (issue 27): contacts, and document requests they answer by link

/**
 * A company's outside contacts: the agency's permit desk, a surety's agent, a subcontractor, the
 * owner's representative. They hold no account; a document request reaches them by e-mail.
 * An e-mail is optional (a phone-only contact) but once per company, any case: imports and the
 * request dialog find a contact by it.
 */
export const contacts = pgTable(
  "contacts",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    email: text("email"),
    organization: text("organization"),
    /** agency, surety_agent, subcontractor, owner, other */
    kind: text("kind").notNull().default("other"),
    phone: text("phone"),
    notes: text("notes"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("contacts_company_email_uq")
      .on(t.companyId, sql`lower(${t.email})`)
      .where(sql`${t.email} is not null`),
    index("contacts_company_name_idx").on(t.companyId, t.name),
    check("contacts_kind_check", sql`${t.kind} in ('agency','surety_agent','subcontractor','owner','other')`),
  ],
);

/** The contacts a permit or bond lists (its agency contact, its surety agent...). */
export const permitContacts = pgTable(
  "permit_contacts",
  {
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    permitId: uuid("permit_id")
      .notNull()
      .references(() => permits.id, { onDelete: "cascade" }),
    contactId: uuid("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.permitId, t.contactId] }),
    index("permit_contacts_contact_idx").on(t.contactId),
  ],
);

/**
 * A document asked of an outside party about one permit or bond. The party answers through a link
 * whose token (32 random bytes, base64url) is stored only as its SHA-256 (token_hash); the link
 * reaches this one request until expires_at, revoked_at or its approval.
 *
 * status: open (sent, or rejected and waiting for another upload), submitted (awaiting review),
 * approved (applied; the link shows its completed page), revoked. `fields` lists what the party may
 * fill in (new_expiration_date, new_permit_number, amount, effective_date); nothing else is taken.
 * The party's name, e-mail and organization are copied from the contact when sent, so the trail
 * keeps them if the contact changes.
 */
export const documentRequests = pgTable(
  "document_requests",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    permitId: uuid("permit_id")
      .notNull()
      .references(() => permits.id, { onDelete: "cascade" }),
    contactId: uuid("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    partyName: text("party_name").notNull(),
    partyEmail: text("party_email").notNull(),
    partyOrganization: text("party_organization"),
    /** renewed_permit, inspection_report, bond_rider, continuation_certificate, release_letter, certificate_of_insurance, other */
    documentKind: text("document_kind").notNull(),
    /** 'Other''s Title; null for the named kinds. */
    title: text("title"),
    message: text("message"),
    dueDate: day("due_date"),
    fields: jsonb("fields")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    tokenHash: text("token_hash").notNull(),
    /**
     * The token sealed with a key derived from SESSION_SECRET (link-signer.ts), so the request's
     * e-mails (a retry after an SMTP outage, a rejection, a reminder) can carry the same link; the
     * database alone never yields a working link (decision 0028). Null: no e-mail can carry it.
     */
    tokenSealed: text("token_sealed"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    status: text("status").notNull().default("open"),
    firstViewedAt: timestamp("first_viewed_at", { withTimezone: true }),
    lastViewedAt: timestamp("last_viewed_at", { withTimezone: true }),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    reviewedBy: uuid("reviewed_by"),
    reviewedByName: text("reviewed_by_name"),
    rejectReason: text("reject_reason"),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** No foreign key (as the audit): the request keeps who sent it after the user is gone. */
    createdBy: uuid("created_by"),
    createdByName: text("created_by_name").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("document_requests_token_hash_uq").on(t.tokenHash),
    index("document_requests_permit_idx").on(t.permitId, t.createdAt),
    index("document_requests_company_status_idx").on(t.companyId, t.status, t.dueDate),
    check("document_requests_status_check", sql`${t.status} in ('open','submitted','approved','revoked')`),
    check(
      "document_requests_kind_check",
      sql`${t.documentKind} in ('renewed_permit','inspection_report','bond_rider','continuation_certificate','release_letter','certificate_of_insurance','other')`,
    ),
    check("document_requests_token_hash_check", sql`${t.tokenHash} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * One answer of the party (Submit): the values it filled in and, through request_files, its files.
 * A rejection closes the submission with its reason; the party may then submit again.
 * status: pending, approved, rejected.
 */
export const requestSubmissions = pgTable(
  "request_submissions",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    requestId: uuid("request_id")
      .notNull()
      .references(() => documentRequests.id, { onDelete: "cascade" }),
    values: jsonb("values")
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    status: text("status").notNull().default("pending"),
    reason: text("reason"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
  },
  (t) => [
    index("request_submissions_request_idx").on(t.requestId, t.submittedAt),
    // At most one submission awaits review per request.
    uniqueIndex("request_submissions_pending_uq")
      .on(t.requestId)
      .where(sql`status = 'pending'`),
    check("request_submissions_status_check", sql`${t.status} in ('pending','approved','rejected')`),
  ],
);

/**
 * A file the party uploaded through the link, stored through the storage interface like an
 * attachment. It belongs to the request (the link lists these and nothing else) and to the
 * submission it came with; on approval it becomes an attachment of the permit (attachment_id).
 */
export const requestFiles = pgTable(
  "request_files",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    requestId: uuid("request_id")
      .notNull()
      .references(() => documentRequests.id, { onDelete: "cascade" }),
    submissionId: uuid("submission_id").references(() => requestSubmissions.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    storageKey: text("storage_key").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    attachmentId: uuid("attachment_id").references(() => attachments.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("request_files_request_idx").on(t.requestId, t.createdAt),
    check("request_files_sha256_check", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * Every e-mail to an outside party about a request, sent exactly once through the same delivery
 * machinery as reminders: the request itself, a rejection (with its reason), and the reminders 7
 * and 1 days before the due date and on it (threshold 7, 1, 0; one per request, threshold and due
 * date, by the unique key).
 */
export const requestDeliveries = pgTable(
  "request_deliveries",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    requestId: uuid("request_id")
      .notNull()
      .references(() => documentRequests.id, { onDelete: "cascade" }),
    /** request, rejection, reminder */
    kind: text("kind").notNull(),
    threshold: integer("threshold").notNull().default(0),
    dueDate: day("due_date"),
    recipientEmail: text("recipient_email").notNull(),
    /** pending, sending, sent, failed; cancelled: the request was revoked or approved before it went out */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    lastError: text("last_error"),
    messageId: text("message_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("request_deliveries_reminder_uq")
      .on(t.requestId, t.threshold, t.dueDate)
      .where(sql`kind = 'reminder'`),
    index("request_deliveries_pending_idx").on(t.status, t.nextAttemptAt),
    check("request_deliveries_kind_check", sql`${t.kind} in ('request','rejection','reminder')`),
  ],
);

/**
 * Issue 28: the text the document reader took from one file of a company, and the values it
 * suggests. One row per (company, SHA-256): a file is read once however many attachments, request
 * uploads or form uploads hold the same bytes. Rows are claimed like reminder deliveries (status,
 * next_attempt_at, a lease on claimed_at), so a reading survives a restart and runs exactly once.
 * Nothing here is ever written into a permit: a person accepts a suggestion through the normal edit.
 */
export const documentReadings = pgTable(
  "document_readings",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    sha256: text("sha256").notNull(),
    /** A storage key holding the bytes; null once a form's staged file is removed after its reading. */
    sourceKey: text("source_key"),
    /** The name of the file it was first uploaded as. */
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    /** 'staged': uploaded on the new-permit form before the permit exists (its object is removed once read). */
    staged: boolean("staged").notNull().default(false),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    pageCount: integer("page_count"),
    pagesRead: integer("pages_read").notNull().default(0),
    /** Why fewer pages than the document's were read (a bound), in words for the panel. */
    notice: text("notice"),
    error: text("error"),
    /** [{ page, text, source: 'text' | 'ocr' }] */
    pages: jsonb("pages").notNull().default(sql`'[]'::jsonb`),
    /** The pages' text joined, for search (document_readings_search_idx). */
    content: text("content").notNull().default(""),
    /** Suggestion[] (shared/schemas/document-readings.ts). */
    suggestions: jsonb("suggestions").notNull().default(sql`'[]'::jsonb`),
    readMs: integer("read_ms"),
    createdAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("document_readings_company_sha_uq").on(t.companyId, t.sha256),
    index("document_readings_due_idx").on(t.status, t.nextAttemptAt),
    index("document_readings_search_idx").using("gin", sql`to_tsvector('english', ${t.content})`),
    check("document_readings_status_check", sql`${t.status} in ('pending','reading','done','failed')`),
    check("document_readings_sha256_check", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Conditions of approval as tasks (issue 29, decision 0032)

/**
 * A condition an agency attached to a permit ("inspect erosion controls every 7 days"): who answers
 * for it, what evidence completing it needs, and its schedule, which makes the tasks below.
 * - once: one task due on due_date;
 * - every: a task per occurrence from starts_on, every `every_interval` `every_unit`, until the
 *   permit closes or ends_on; only the next one exists at a time (completing it makes the next);
 * - before_event: one task `offset_amount` `offset_unit` before milestone_at (e.g. 48 hours before
 *   'Pour');
 * - after_event: a task within `offset_amount` `offset_unit` of each event of `event_kind` logged on
 *   the permit's project (e.g. within 24 hours of 'Rain ≥ 0.25 in').
 * Removing a condition keeps it (removed_at) with its done tasks as the record; its open tasks are
 * closed as not applicable.
 */
export const permitConditions = pgTable(
  "permit_conditions",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    permitId: uuid("permit_id")
      .notNull()
      .references(() => permits.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    /** A staff user of the company; the permit's responsible person when the form left it empty. */
    ownerUserId: uuid("owner_user_id").references(() => users.id, { onDelete: "set null" }),
    /** none, file, photo */
    evidence: text("evidence").notNull().default("none"),
    /** once, every, before_event, after_event */
    schedule: text("schedule").notNull(),
    dueDate: day("due_date"),
    everyInterval: integer("every_interval"),
    /** days, weeks, months */
    everyUnit: text("every_unit"),
    startsOn: day("starts_on"),
    endsOn: day("ends_on"),
    offsetAmount: integer("offset_amount"),
    /** hours, days */
    offsetUnit: text("offset_unit"),
    milestoneName: text("milestone_name"),
    milestoneAt: timestamp("milestone_at", { withTimezone: true }),
    eventKind: text("event_kind"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    removedAt: timestamp("removed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("permit_conditions_permit_idx").on(t.permitId, t.createdAt),
    index("permit_conditions_event_idx")
      .on(t.companyId, sql`lower(${t.eventKind})`)
      .where(sql`schedule = 'after_event' and removed_at is null`),
    check("permit_conditions_evidence_check", sql`${t.evidence} in ('none','file','photo')`),
    check(
      "permit_conditions_schedule_check",
      sql`${t.schedule} in ('once','every','before_event','after_event')`,
    ),
    check(
      "permit_conditions_once_check",
      sql`${t.schedule} <> 'once' or ${t.dueDate} is not null`,
    ),
    check(
      "permit_conditions_every_check",
      sql`${t.schedule} <> 'every' or (${t.everyInterval} between 1 and 365 and ${t.everyUnit} in ('days','weeks','months') and ${t.startsOn} is not null and (${t.endsOn} is null or ${t.endsOn} >= ${t.startsOn}))`,
    ),
    check(
      "permit_conditions_event_check",
      sql`${t.schedule} not in ('before_event','after_event') or (${t.offsetAmount} between 0 and 8760 and ${t.offsetUnit} in ('hours','days'))`,
    ),
    check(
      "permit_conditions_after_event_check",
      sql`${t.schedule} <> 'after_event' or ${t.eventKind} is not null`,
    ),
  ],
);

/**
 * Something that happened on a project and may trigger conditions ('Log Event'): a rain event, a
 * lane closure. Each condition of the project's open permits with schedule after_event and the same
 * kind (compared case-insensitively, trimmed) gets a task due within its window.
 */
export const projectEvents = pgTable(
  "project_events",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    note: text("note"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByName: text("created_by_name").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [index("project_events_project_idx").on(t.projectId, t.occurredAt)],
);

/**
 * A dated piece of work a condition made. due_at is the instant it becomes overdue; due_on its
 * company-local date (the lists, the digests and the calendar read it). A task due on a date (once,
 * every) has due_at at the end of that day in the company's zone and timed = false; a task due at a
 * time (before or after an event) has timed = true.
 * Occurrence: the n-th of an 'every' schedule (0 for once and before_event); event_id: the logged
 * event an after_event task answers. Either key makes a task impossible to create twice.
 */
export const conditionTasks = pgTable(
  "condition_tasks",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    permitId: uuid("permit_id")
      .notNull()
      .references(() => permits.id, { onDelete: "cascade" }),
    conditionId: uuid("condition_id")
      .notNull()
      .references(() => permitConditions.id, { onDelete: "cascade" }),
    occurrence: integer("occurrence"),
    eventId: uuid("event_id").references(() => projectEvents.id, { onDelete: "set null" }),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    dueOn: day("due_on").notNull(),
    timed: boolean("timed").notNull().default(false),
    /** open, done, not_applicable */
    status: text("status").notNull().default("open"),
    completedBy: uuid("completed_by").references(() => users.id, { onDelete: "set null" }),
    completedByName: text("completed_by_name"),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    note: text("note"),
    /** Why it was not applicable ('Not Applicable – permit closed' when the permit closed). */
    reason: text("reason"),
    /** The evidence file, through the storage interface (server/storage/), checked like attachments. */
    evidenceKey: text("evidence_key"),
    evidenceName: text("evidence_name"),
    evidenceContentType: text("evidence_content_type"),
    evidenceSize: integer("evidence_size"),
    evidenceSha256: text("evidence_sha256"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("condition_tasks_occurrence_uq")
      .on(t.conditionId, t.occurrence)
      .where(sql`occurrence is not null`),
    uniqueIndex("condition_tasks_event_uq").on(t.conditionId, t.eventId).where(sql`event_id is not null`),
    index("condition_tasks_condition_idx").on(t.conditionId, t.dueAt),
    index("condition_tasks_permit_idx").on(t.permitId, t.status, t.dueOn),
    index("condition_tasks_open_due_idx").on(t.companyId, t.dueOn).where(sql`status = 'open'`),
    check("condition_tasks_status_check", sql`${t.status} in ('open','done','not_applicable')`),
    check(
      "condition_tasks_done_check",
      sql`${t.status} = 'open' or ${t.completedAt} is not null`,
    ),
    check("condition_tasks_sha256_check", sql`${t.evidenceSha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * The conditions a permit template carries (issue 29): a project's template permits get them. Dates
 * are relative, as a template has no permit yet: once is due `due_days` after the permit is made;
 * every starts the day the permit is made; before_event waits for its milestone's date to be
 * entered on the permit; after_event needs nothing.
 */
export const templateConditions = pgTable(
  "template_conditions",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    templateId: uuid("template_id")
      .notNull()
      .references(() => permitTemplates.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    title: text("title").notNull(),
    description: text("description"),
    evidence: text("evidence").notNull().default("none"),
    schedule: text("schedule").notNull(),
    dueDays: integer("due_days"),
    everyInterval: integer("every_interval"),
    everyUnit: text("every_unit"),
    offsetAmount: integer("offset_amount"),
    offsetUnit: text("offset_unit"),
    milestoneName: text("milestone_name"),
    eventKind: text("event_kind"),
    createdAt: createdAt(),
  },
  (t) => [
    index("template_conditions_template_idx").on(t.templateId, t.position),
    check("template_conditions_evidence_check", sql`${t.evidence} in ('none','file','photo')`),
    check(
      "template_conditions_schedule_check",
      sql`${t.schedule} in ('once','every','before_event','after_event')`,
    ),
  ],
);

// ---------------------------------------------------------------------------------------------
// API keys (issue 30, item 5)

/**
 * A company's key to the JSON API (`Authorization: Bearer <key>`), acting as a company admin or a
 * company user of that company (never a super-admin). Shown once; only its SHA-256 is kept (the key
 * is 256 random bits, so a fast hash is enough), with a short prefix to tell keys apart on screen.
 * Revoked or past expires_at: 401. Every write it makes is audited as 'API key NAME'.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** company-admin, company-user */
    role: text("role").notNull(),
    /** The key's first characters ("ptk_AbCd1234"), shown in the list; not secret enough to use. */
    prefix: text("prefix").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByName: text("created_by_name").notNull().default(""),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("api_keys_token_hash_uq").on(t.tokenHash),
    index("api_keys_company_idx").on(t.companyId, t.createdAt),
    uniqueIndex("api_keys_company_name_uq").on(t.companyId, sql`lower(${t.name})`),
    check("api_keys_role_check", sql`${t.role} in ('company-admin','company-user')`),
    check("api_keys_token_hash_check", sql`${t.tokenHash} ~ '^[0-9a-f]{64}$'`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Telling the world (issue 30, items 1 and 2): status links and the monthly compliance packet

/**
 * 'Share Status': a read-only link to a project's (or a client's, across its projects) permits and
 * bonds, opened without sign-in. The token (32 random bytes) is kept as its SHA-256 only; the link
 * expires at expires_at and may be revoked; every view is counted.
 */
export const statusLinks = pgTable(
  "status_links",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    clientId: uuid("client_id").references(() => clients.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByName: text("created_by_name").notNull().default(""),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    viewCount: integer("view_count").notNull().default(0),
    lastViewedAt: timestamp("last_viewed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("status_links_token_hash_uq").on(t.tokenHash),
    index("status_links_project_idx").on(t.projectId),
    index("status_links_client_idx").on(t.clientId),
    check("status_links_scope_check", sql`(${t.projectId} is null) <> (${t.clientId} is null)`),
    check("status_links_token_hash_check", sql`${t.tokenHash} ~ '^[0-9a-f]{64}$'`),
  ],
);

/** Who gets a project's compliance packet by e-mail each month (opt-in per project). */
export const packetRecipients = pgTable(
  "packet_recipients",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("packet_recipients_project_email_uq").on(t.projectId, sql`lower(${t.email})`)],
);

/**
 * The monthly packet e-mails, exactly once per (project, month, recipient) by the unique key, sent
 * and retried like the reminders (status, attempts, next_attempt_at, a lease on claimed_at).
 */
export const packetDeliveries = pgTable(
  "packet_deliveries",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** The month's first day, company-local. */
    month: day("month").notNull(),
    recipientEmail: text("recipient_email").notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    lastError: text("last_error"),
    messageId: text("message_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("packet_deliveries_key_uq").on(t.projectId, t.month, sql`lower(${t.recipientEmail})`),
    index("packet_deliveries_pending_idx").on(t.status, t.nextAttemptAt),
    check("packet_deliveries_status_check", sql`${t.status} in ('pending','sending','sent','failed','cancelled')`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Webhooks (issue 30, items 3 and 4)

/**
 * A company's endpoint (Admin > Webhooks). The signing secret (whsec_...) is shown once and kept
 * sealed (AES-256-GCM under the app secret: it must sign, so it cannot be a hash). `events` null:
 * every event. An endpoint failing every delivery for 24 hours, at least 10 times, is disabled
 * (disabled_reason says why; the admins are e-mailed).
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** standard (signed JSON), slack, teams */
    format: text("format").notNull().default("standard"),
    /** The event types it hears of; null: all. */
    events: text("events").array(),
    secretSealed: text("secret_sealed").notNull(),
    /** The secret's first characters ("whsec_AbCd"), to tell secrets apart. */
    secretPrefix: text("secret_prefix").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    disabledReason: text("disabled_reason"),
    /** Since when every attempt failed (null after a success), and how many failed in a row. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByName: text("created_by_name").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_endpoints_company_idx").on(t.companyId, t.createdAt),
    check("webhook_endpoints_format_check", sql`${t.format} in ('standard','slack','teams')`),
  ],
);

/**
 * Something that happened, recorded in the transaction of the change (an outbox): `data` is the
 * payload's data as of then. Recorded only while the company has an enabled endpoint for it. A
 * time-driven event (expiring, expired, task overdue) carries a dedupe_key so it is recorded once.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    data: jsonb("data").notNull(),
    dedupeKey: text("dedupe_key"),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("webhook_events_dedupe_uq").on(t.companyId, t.dedupeKey),
    index("webhook_events_company_idx").on(t.companyId, t.occurredAt),
  ],
);

/**
 * One event to one endpoint: claimed like the e-mail deliveries (FOR UPDATE SKIP LOCKED, 'sending'
 * with claimed_at as the claim's token, a lease), retried on WEBHOOK_RETRY_DELAYS_MS, the same
 * message_id (webhook-id) on every attempt and on 'Resend'.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    /** webhook-id: msg_ and 32 hex characters, fixed at the delivery's birth. */
    messageId: text("message_id").notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_key_uq").on(t.endpointId, t.eventId),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('pending','sending')`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    check("webhook_deliveries_status_check", sql`${t.status} in ('pending','sending','delivered','failed')`),
  ],
);

/** Every HTTP attempt of a delivery: the delivery log's lines. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: id(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
    /** null: no answer (refused, timed out, unreachable: `error` says which). */
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    responseExcerpt: text("response_excerpt"),
    error: text("error"),
    /** A 'Resend' by a person rather than the schedule. */
    manual: boolean("manual").notNull().default(false),
  },
  (t) => [
    index("webhook_attempts_endpoint_idx").on(t.endpointId, t.attemptedAt),
    index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt),
  ],
);
