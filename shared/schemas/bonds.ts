import { z } from "zod";
import {
  BOND_SORT_FIELDS,
  BOND_STATUSES,
  COLLATERAL_FORMS,
  LEDGER_KINDS,
  MAINTENANCE_TERM_MONTHS_MAX,
  MONEY_PATTERN,
  PERCENT_PATTERN,
  type BondStatus,
  type CollateralForm,
  type LedgerKind,
} from "../domain/bonds.ts";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../domain/constants.ts";
import { isIsoDate } from "../domain/dates.ts";
import { SORT_DIRECTIONS } from "../domain/permit-list.ts";
import { GUARANTEE_TYPES } from "../domain/statuses.ts";

// The bond ledger (issue 12): sureties, a bond's ledger and collateral, the maintenance bond, the
// Bonds page. Amounts travel as strings with two decimals ("25000.00"); requests may send numbers
// or strings with thousands separators ("25,000"), which become such strings.

export const BOND_LIMITS = {
  suretyName: 200,
  contactName: 200,
  phone: 50,
  email: 254,
  reason: 500,
  note: 2000,
  bondNumber: 200,
  search: 200,
} as const;

const DATE_MESSAGE = "Must be a valid date (YYYY-MM-DD)";

const requiredDate = (label: string) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, { message: `${label} is required` })
    .refine(isIsoDate, { message: `${label}: ${DATE_MESSAGE}` });

const optionalDate = (label: string) =>
  z
    .union([
      z
        .string()
        .trim()
        .refine((v) => v === "" || isIsoDate(v), { message: `${label}: ${DATE_MESSAGE}` }),
      z.null(),
    ])
    .optional()
    .transform((v) => (v ? v : null));

const requiredText = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, { message: `${label} is required` })
    .max(max, { message: `${label} must be at most ${max} characters` });

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `${label} must be at most ${max} characters` })
    .nullish()
    .transform((v) => (v ? v : null));

const optionalId = z
  .union([z.uuid({ message: "Must be a valid id" }), z.literal(""), z.null()])
  .optional()
  .transform((v) => (v ? v : null));

const rawMoney = (v: unknown) => (v === null || v === undefined ? "" : String(v).trim().replace(/,/g, ""));

/**
 * An amount: up to 12 digits before the point and 2 after. `signed` allows a leading minus (a
 * Rider's decrease); `positive` refuses 0. Missing or blank: null when optional, else "required".
 */
const money = (label: string, opts: { required?: boolean; signed?: boolean; positive?: boolean } = {}) =>
  z
    .union([z.string(), z.number(), z.null()])
    .optional()
    .transform((v, ctx) => {
      const s = rawMoney(v);
      if (!s) {
        if (opts.required) {
          ctx.addIssue({ code: "custom", message: `${label} is required` });
          return z.NEVER;
        }
        return null;
      }
      if (!opts.signed && /^-\d/.test(s) && !Number.isNaN(Number(s))) {
        ctx.addIssue({ code: "custom", message: `${label} cannot be negative` });
        return z.NEVER;
      }
      if (!MONEY_PATTERN.test(s)) {
        ctx.addIssue({ code: "custom", message: `${label} must be a number with at most 2 decimals` });
        return z.NEVER;
      }
      if (opts.positive && Number(s) <= 0) {
        ctx.addIssue({ code: "custom", message: `${label} must be more than 0` });
        return z.NEVER;
      }
      return s;
    });

/** A required amount (never null after parsing). */
const requiredMoney = (label: string, opts: { signed?: boolean; positive?: boolean } = {}) =>
  money(label, { ...opts, required: true }) as unknown as z.ZodType<string, string | number>;

const amountOut = z.string();
const day = z.string().nullable();
const named = z.object({ id: z.uuid(), name: z.string() });

// ---------------------------------------------------------------------------------------------
// Sureties (Surety Admin; admins only write)

export const SuretyListQuerySchema = z.object({
  /** A super-admin names the company; everyone else sees their own. */
  company_id: optionalId,
});

/** POST /api/sureties and PUT /api/sureties/:id (the Surety Admin form). */
export const SuretyInputSchema = z
  .object({
    /** Super-admin only (required for them on create; ignored on update: a surety stays in its company). */
    company_id: optionalId,
    name: requiredText("Name", BOND_LIMITS.suretyName),
    contact_name: optionalText("Contact", BOND_LIMITS.contactName),
    phone: optionalText("Phone", BOND_LIMITS.phone),
    email: optionalText("E-mail", BOND_LIMITS.email).refine(
      (v) => v === null || z.email().safeParse(v).success,
      {
        message: "Enter a valid email address",
      },
    ),
    single_limit: money("Single Limit"),
    aggregate_limit: money("Aggregate Limit"),
  })
  .superRefine(
    (v, ctx) => {
      if (
        typeof v.single_limit === "string" &&
        typeof v.aggregate_limit === "string" &&
        Number(v.single_limit) > Number(v.aggregate_limit)
      ) {
        ctx.addIssue({
          code: "custom",
          path: ["single_limit"],
          message: "Single Limit cannot be more than the Aggregate Limit",
        });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  );
export type SuretyInput = z.output<typeof SuretyInputSchema>;
export type SuretyFormValues = z.input<typeof SuretyInputSchema>;

export const SuretyCanSchema = z.object({ edit: z.boolean(), delete: z.boolean() });

/**
 * A surety as GET /api/sureties lists it. Staff see names and contacts; the limits and the
 * exposure only reach admins (null for everyone else). Client-users get only the sureties of their
 * clients' bonds, names only.
 */
export const SuretySchema = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  name: z.string(),
  contact_name: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  single_limit: amountOut.nullable(),
  aggregate_limit: amountOut.nullable(),
  /** Bonds naming this surety (any status): a surety in use cannot be deleted. Null for client-users. */
  bond_count: z.number().int().nonnegative().nullable(),
  /** Current amount of its Active and Reduced bonds. Null unless the actor sees limits. */
  open_exposure: amountOut.nullable(),
  can: SuretyCanSchema,
});
export type Surety = z.infer<typeof SuretySchema>;

/** GET /api/sureties: the company's sureties by name; `can.create` shows 'Add Surety'. */
export const SuretyListSchema = z.object({
  sureties: z.array(SuretySchema),
  can: z.object({ create: z.boolean(), view_limits: z.boolean() }),
});
export type SuretyList = z.infer<typeof SuretyListSchema>;

/** POST/PUT answer. */
export const SuretyResponseSchema = z.object({ surety: SuretySchema });

/** The message of DELETE /api/sureties/:id on a surety some bond names (409). */
export const SURETY_IN_USE_MESSAGE = (count: number) =>
  `This surety is named on ${count} bond${count === 1 ? "" : "s"}; choose another surety on them before deleting it.`;
export const SURETY_NAME_TAKEN_MESSAGE = "A surety with this name already exists";

// ---------------------------------------------------------------------------------------------
// The ledger: POST /api/bonds/:id/ledger (one body per kind, told apart by `kind`)

const documentId = optionalId;
const reason = (required: boolean) =>
  required ? requiredText("Reason", BOND_LIMITS.reason) : optionalText("Reason", BOND_LIMITS.reason);

/** 'Rider': an increase or a decrease (signed), its effective date and why; a document may go with it. */
export const RiderInputSchema = z.object({
  kind: z.literal("rider"),
  change: requiredMoney("Change", { signed: true }),
  effective_date: requiredDate("Effective Date"),
  reason: reason(true),
  document_id: documentId,
});

/**
 * 'Reduction': by an amount (how much comes off) or by a percent of the current amount (rounded
 * to the cent); exactly one of the two. The obligee's acceptance date is required.
 */
export const ReductionInputSchema = z
  .object({
    kind: z.literal("reduction"),
    amount: money("Amount", { positive: true }),
    percent: z
      .union([z.string(), z.number(), z.null()])
      .optional()
      .transform((v, ctx) => {
        const s = rawMoney(v).replace(/%$/, "").trim();
        if (!s) return null;
        if (!PERCENT_PATTERN.test(s) || Number(s) <= 0 || Number(s) >= 100) {
          ctx.addIssue({
            code: "custom",
            message: "Percent must be more than 0 and less than 100, with at most 2 decimals",
          });
          return z.NEVER;
        }
        return s;
      }),
    effective_date: requiredDate("Effective Date"),
    obligee_acceptance_date: requiredDate("Obligee Acceptance Date"),
    reason: reason(false),
    document_id: documentId,
  })
  .superRefine(
    (v, ctx) => {
      const hasAmount = typeof v.amount === "string";
      const hasPercent = typeof v.percent === "string";
      if (hasAmount === hasPercent) {
        const message = hasAmount ? "Enter an amount or a percent, not both" : "Enter an amount or a percent";
        ctx.addIssue({ code: "custom", path: ["amount"], message });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  );

/** 'Release': the date (the release letter as the document); the amount goes to 0. */
export const ReleaseInputSchema = z.object({
  kind: z.literal("release"),
  effective_date: requiredDate("Release Date"),
  reason: reason(false),
  document_id: documentId,
});

/** 'Cancellation': the date and why; the amount goes to 0. */
export const CancellationInputSchema = z.object({
  kind: z.literal("cancellation"),
  effective_date: requiredDate("Effective Date"),
  reason: reason(true),
  document_id: documentId,
});

/** 'Claim': the date and what happened; the amount stays, the status becomes Claimed. */
export const ClaimInputSchema = z.object({
  kind: z.literal("claim"),
  effective_date: requiredDate("Claim Date"),
  reason: reason(true),
  document_id: documentId,
});

/** 'Reverse': undoes one entry's change (not the original, not a reversal, once only). */
export const ReversalInputSchema = z.object({
  kind: z.literal("reversal"),
  reverses_id: z.uuid({ message: "Choose the entry to reverse" }),
  effective_date: requiredDate("Effective Date"),
  reason: reason(true),
});

export const LedgerEntryInputSchema = z.discriminatedUnion(
  "kind",
  [
    RiderInputSchema,
    ReductionInputSchema,
    ReleaseInputSchema,
    CancellationInputSchema,
    ClaimInputSchema,
    ReversalInputSchema,
  ],
  { error: "Event must be Rider, Reduction, Release, Cancellation, Claim or Reversal" },
);
export type LedgerEntryInput = z.output<typeof LedgerEntryInputSchema>;
export type LedgerEntryFormValues = z.input<typeof LedgerEntryInputSchema>;

/** Field names a VALIDATION answer of the ledger route may name. */
export const LEDGER_INPUT_FIELDS = [
  "kind",
  "change",
  "amount",
  "percent",
  "effective_date",
  "obligee_acceptance_date",
  "reason",
  "document_id",
  "reverses_id",
] as const;

// ---------------------------------------------------------------------------------------------
// Collateral

/** POST /api/bonds/:id/collateral ('Add Collateral'). */
export const CollateralInputSchema = z.object({
  form: z.enum(COLLATERAL_FORMS, { message: "Form must be Letter of Credit, Cash or Other" }),
  amount: requiredMoney("Amount", { positive: true }),
  held_since: requiredDate("Held Since"),
  note: optionalText("Note", BOND_LIMITS.note),
});
export type CollateralInput = z.output<typeof CollateralInputSchema>;
export type CollateralFormValues = z.input<typeof CollateralInputSchema>;

/** PATCH /api/bonds/:id/collateral/:cid ('Release Collateral'): on or after the bond's release. */
export const CollateralReleaseInputSchema = z.object({
  released_on: requiredDate("Released On"),
});
export type CollateralReleaseInput = z.output<typeof CollateralReleaseInputSchema>;

export const CollateralParamsSchema = z.object({
  id: z.uuid({ message: "Must be a valid id" }),
  cid: z.uuid({ message: "Must be a valid id" }),
});

// ---------------------------------------------------------------------------------------------
// 'Start Maintenance Bond'

/**
 * POST /api/bonds/:id/maintenance-bond on a Performance bond: the Maintenance bond that follows
 * it. Left empty, the surety, project, agency and names come from the performance bond; the start
 * date is today (company time zone); the expiration is start + term months.
 */
export const MaintenanceBondInputSchema = z.object({
  amount: requiredMoney("Amount", { positive: true }),
  /** Whole months, 1 to 120 (the dialog offers 12 and 24); a number or a string of digits. */
  term_months: z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,3}$/)
          .transform(Number),
      ],
      {
        message: "Term must be a whole number of months",
      },
    )
    .pipe(
      z
        .number()
        .int({ message: "Term must be a whole number of months" })
        .min(1, { message: "Term must be at least 1 month" })
        .max(MAINTENANCE_TERM_MONTHS_MAX, {
          message: `Term must be at most ${MAINTENANCE_TERM_MONTHS_MAX} months`,
        }),
    ),
  start_date: optionalDate("Start Date"),
  bond_number: optionalText("Bond Number", BOND_LIMITS.bondNumber),
  /** The Permit Number of the new record; empty: the bond number, else the performance bond's + " M". */
  permit_number: optionalText("Permit Number", 100),
  /** Empty: "<performance bond's name> (Maintenance)". */
  permit_name: optionalText("Permit Name", 200),
  surety_id: optionalId,
  agency: optionalText("Agency", 200),
});
export type MaintenanceBondInput = z.output<typeof MaintenanceBondInputSchema>;
export type MaintenanceBondFormValues = z.input<typeof MaintenanceBondInputSchema>;

// ---------------------------------------------------------------------------------------------
// Output: GET /api/bonds/:id/ledger (and the answer of every write on a bond)

export const LedgerEntrySchema = z.object({
  id: z.uuid(),
  /** Ledger order. */
  seq: z.number().int(),
  kind: z.enum(LEDGER_KINDS) as z.ZodType<LedgerKind>,
  effective_date: z.string(),
  /** Reductions only. */
  obligee_acceptance_date: day,
  /** Reductions by percent only, as numeric(5,2) gives it ("50.00", "12.50"). */
  percent: z.string().nullable(),
  /** Signed ("-12500.00"); "0.00" for a claim. */
  change: amountOut,
  /** The running amount after this entry. */
  amount_after: amountOut,
  reason: z.string().nullable(),
  /** An attachment of the bond; null when none (or since deleted). */
  document: named.nullable(),
  by: z.object({ name: z.string() }),
  created_at: z.string(),
  /** On a reversal: the entry it undid. */
  reverses_id: z.uuid().nullable(),
  /** The reversal that undid this entry, if any. */
  reversed_by_id: z.uuid().nullable(),
  /** Whether 'Reverse' is offered on this row (role and the ledger's rules). */
  can_reverse: z.boolean(),
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

export const CollateralSchema = z.object({
  id: z.uuid(),
  form: z.enum(COLLATERAL_FORMS) as z.ZodType<CollateralForm>,
  amount: amountOut,
  held_since: z.string(),
  released_on: day,
  note: z.string().nullable(),
  by: z.object({ name: z.string() }),
  created_at: z.string(),
  /** Whether 'Release' is offered (role; the bond released or cancelled; not yet released). */
  can_release: z.boolean(),
});
export type Collateral = z.infer<typeof CollateralSchema>;

/** A linked bond (the maintenance bond of a performance bond, or the other way round). */
export const LinkedBondSchema = z.object({
  id: z.uuid(),
  permit_number: z.string(),
  permit_name: z.string(),
  bond_number: z.string().nullable(),
  status: (z.enum(BOND_STATUSES) as z.ZodType<BondStatus>).nullable(),
  current_amount: amountOut.nullable(),
});
export type LinkedBond = z.infer<typeof LinkedBondSchema>;

export const BondLedgerCanSchema = z.object({
  rider: z.boolean(),
  reduction: z.boolean(),
  release: z.boolean(),
  cancellation: z.boolean(),
  claim: z.boolean(),
  /** Some entry can be reversed (each row says which in can_reverse). */
  reverse: z.boolean(),
  add_collateral: z.boolean(),
  /** A Performance bond without a maintenance bond yet, not cancelled. */
  start_maintenance_bond: z.boolean(),
});
export type BondLedgerCan = z.infer<typeof BondLedgerCanSchema>;

/**
 * GET /api/bonds/:id/ledger: the bond's status and amounts, the 'Bond Ledger' entries in order,
 * its collateral (null for client-users), the linked maintenance/performance bond and what the
 * actor may do. POST .../ledger, .../collateral and PATCH .../collateral/:cid answer the same.
 */
export const BondLedgerSchema = z.object({
  id: z.uuid(),
  guarantee_type: z.enum(GUARANTEE_TYPES).nullable(),
  bond_number: z.string().nullable(),
  surety: named.nullable(),
  /** Null only for a bond without an amount yet (no ledger). */
  status: (z.enum(BOND_STATUSES) as z.ZodType<BondStatus>).nullable(),
  /** The bond_amount: the original (penal) amount. */
  original_amount: amountOut.nullable(),
  current_amount: amountOut.nullable(),
  /** ISO 4217 of the bond's company (the browser formats with its locale). */
  currency: z.string(),
  entries: z.array(LedgerEntrySchema),
  /** Null for client-users (they never see collateral). */
  collateral: z.array(CollateralSchema).nullable(),
  /** Sum of unreleased collateral; null for client-users. */
  collateral_held: amountOut.nullable(),
  /** The Maintenance bond that follows this Performance bond. */
  maintenance_bond: LinkedBondSchema.nullable(),
  /** The Performance bond this Maintenance bond follows. */
  performance_bond: LinkedBondSchema.nullable(),
  can: BondLedgerCanSchema,
});
export type BondLedger = z.infer<typeof BondLedgerSchema>;

// ---------------------------------------------------------------------------------------------
// The Bonds page: GET /api/bonds, /api/bonds/export, /api/bonds/schedule.xlsx

const UUID = z.uuid();
const optionalFilterId = z
  .string()
  .refine((v) => v === "" || UUID.safeParse(v).success, { message: "Must be a valid id" })
  .optional()
  .transform((v) => (v ? v : null));

const optionalChoice = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z
    .enum(["", ...values] as unknown as readonly ["", ...T], { message })
    .optional()
    .transform((v) => (v ? (v as T[number]) : null));

/** The Bonds page's filters, as it keeps them in its URL (the export and the schedule take them too). */
export const BondFilterSchema = z.object({
  /** Super-admin: one company (else every company, and `currency` may be null). */
  company_id: optionalFilterId,
  /** A surety id, or "none" for bonds without a surety. */
  surety_id: z
    .string()
    .refine((v) => v === "" || v === "none" || UUID.safeParse(v).success, {
      message: "Must be a surety id or none",
    })
    .optional()
    .transform((v) => (v ? v : null)),
  client_id: optionalFilterId,
  project_id: optionalFilterId,
  status: optionalChoice(BOND_STATUSES, "Unknown status"),
  guarantee_type: optionalChoice(GUARANTEE_TYPES, "Must be Performance or Maintenance"),
  /** Searches permit number and name, bond number, agency, surety, project and client names. */
  q: z
    .string()
    .trim()
    .max(BOND_LIMITS.search, { message: `Must be at most ${BOND_LIMITS.search} characters` })
    .optional()
    .transform((v) => (v ? v : null)),
});
export type BondFilter = z.output<typeof BondFilterSchema>;

const SortChoices = {
  sort: z.enum(BOND_SORT_FIELDS, { message: "Unknown sort column" }).optional(),
  dir: z.enum(SORT_DIRECTIONS, { message: "Must be asc or desc" }).default("asc"),
};

export const BondListQuerySchema = BondFilterSchema.extend({
  ...SortChoices,
  page: z.coerce.number({ message: "Must be a page number" }).int().min(1).max(100_000).default(1),
  page_size: z.coerce
    .number({ message: "Must be a number" })
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE),
});
export type BondListQuery = z.output<typeof BondListQuerySchema>;

/** GET /api/bonds/export: the current view (filters and sort), unpaged, as CSV or Excel. */
export const BondExportQuerySchema = BondFilterSchema.extend({
  ...SortChoices,
  format: z.enum(["csv", "xlsx"], { message: "Must be csv or xlsx" }).default("csv"),
});
export type BondExportQuery = z.output<typeof BondExportQuerySchema>;

/** GET /api/bonds/schedule.xlsx: the 'Bond Schedule' of the open bonds within the filters. */
export const BondScheduleQuerySchema = BondFilterSchema;

export const BondListItemSchema = z.object({
  id: z.uuid(),
  permit_number: z.string(),
  permit_name: z.string(),
  bond_number: z.string().nullable(),
  guarantee_type: z.enum(GUARANTEE_TYPES).nullable(),
  status: (z.enum(BOND_STATUSES) as z.ZodType<BondStatus>).nullable(),
  original_amount: amountOut.nullable(),
  current_amount: amountOut.nullable(),
  currency: z.string(),
  surety: named.nullable(),
  /** The obligee. */
  agency: z.string().nullable(),
  company: named,
  client: named.nullable(),
  project: z.object({ id: z.uuid(), name: z.string(), project_number: z.string().nullable() }).nullable(),
  issue_date: day,
  expiration_date: day,
  /** As the permits list: expired, or expiring within 30 days (company time zone), open bonds only. */
  urgency: z.enum(["expired", "expiring"]).nullable(),
  /** Unreleased collateral; null for client-users. */
  collateral_held: amountOut.nullable(),
  /** Links of 'Start Maintenance Bond'. */
  maintenance_of_id: z.uuid().nullable(),
  maintenance_bond_id: z.uuid().nullable(),
  can: z.object({ edit: z.boolean() }),
});
export type BondListItem = z.infer<typeof BondListItemSchema>;

/** The tiles, over the whole filtered set (not the page). */
export const BondSummarySchema = z.object({
  /** 'Open Exposure': current amounts of Active and Reduced bonds. */
  open_exposure: amountOut,
  /** 'Bonds': how many bonds the filters match. */
  bonds: z.number().int().nonnegative(),
  /** 'Expiring Soon': open bonds expiring today or within 30 days (as the permits' tile). */
  expiring_soon: z.number().int().nonnegative(),
  /** 'Collateral Held': unreleased collateral; null for client-users. */
  collateral_held: amountOut.nullable(),
});
export type BondSummary = z.infer<typeof BondSummarySchema>;

/** Exposure by surety: every surety with an open bond in the view (null id: bonds without one). */
export const BySuretySchema = z.object({
  surety_id: z.uuid().nullable(),
  name: z.string(),
  /** Open exposure (Active and Reduced current amounts). */
  amount: amountOut,
  /** Open bonds. */
  count: z.number().int().nonnegative(),
  /** Null for client-users and for a surety without a limit. */
  aggregate_limit: amountOut.nullable(),
  /** amount / aggregate_limit × 100, one decimal; null with no limit (warning colour over 80). */
  percent_of_aggregate: z.number().nullable(),
});
export type BySurety = z.infer<typeof BySuretySchema>;

/** Open exposure by client or project: the 10 largest. */
export const ExposureRowSchema = z.object({
  id: z.uuid().nullable(),
  name: z.string(),
  amount: amountOut,
  count: z.number().int().nonnegative(),
});
export type ExposureRow = z.infer<typeof ExposureRowSchema>;

/** GET /api/bonds: one server-sorted page, with the tiles and breakdowns of the whole view. */
export const BondListSchema = z.object({
  items: z.array(BondListItemSchema),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  page_size: z.number().int().positive(),
  /** The view's currency; null when a super-admin's view spans companies of different currencies. */
  currency: z.string().nullable(),
  summary: BondSummarySchema,
  by_surety: z.array(BySuretySchema),
  by_client: z.array(ExposureRowSchema),
  by_project: z.array(ExposureRowSchema),
  can: z.object({ export: z.boolean(), manage_sureties: z.boolean() }),
});
export type BondList = z.infer<typeof BondListSchema>;
