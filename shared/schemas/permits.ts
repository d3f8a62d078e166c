import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../domain/constants.ts";
import { isIsoDate } from "../domain/dates.ts";
import {
  DEFAULT_GROUPING,
  PERMIT_GROUPINGS,
  PERMIT_SORT_FIELDS,
  PERMIT_TILES,
  SORT_DIRECTIONS,
  STATUS_FILTER_VALUES,
  type PermitSortField,
} from "../domain/permit-list.ts";
import { EXPIRY_RULES, FINAL_STATUSES } from "../domain/lifecycle.ts";
import { PERMIT_LIMITS } from "../domain/permit-fields.ts";
import { BOND_STATUSES, type BondStatus } from "../domain/bonds.ts";
import { GUARANTEE_TYPES, PERMIT_STATUSES, RECORD_TYPES, type GuaranteeType } from "../domain/statuses.ts";
import { checkExpiryDays, ExpiryFields } from "./expiry-fields.ts";

// Kept in shared/domain (no zod) so that a screen needing only the limits does not load zod.
export { PERMIT_LIMITS };

// ---------------------------------------------------------------------------------------------
// Input: the permit form and POST/PUT /api/permits share this schema.

const requiredText = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, { message: `${label} is required` })
    .max(max, { message: `${label} must be at most ${max} characters` });

/** Optional text: missing, null and blank all become null. */
const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `${label} must be at most ${max} characters` })
    .nullish()
    .transform((v) => (v ? v : null));

const DATE_MESSAGE = "Must be a valid date (YYYY-MM-DD)";
const optionalDate = z
  .union([z.string().refine((v) => v === "" || isIsoDate(v), { message: DATE_MESSAGE }), z.null()])
  .optional()
  .transform((v) => (v ? v : null));

const optionalId = z
  .union([z.uuid({ message: "Must be a valid id" }), z.literal(""), z.null()])
  .optional()
  .transform((v) => (v ? v : null));

/** Up to 12 digits before the point and 2 after (the column is numeric(14,2)). */
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;
const bondAmount = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v, ctx) => {
    const s = v === null || v === undefined ? "" : String(v).trim().replace(/,/g, "");
    if (!s) return null;
    if (/^-\d/.test(s) && !Number.isNaN(Number(s))) {
      ctx.addIssue({ code: "custom", message: "Bond amount cannot be negative" });
      return z.NEVER;
    }
    if (!AMOUNT.test(s)) {
      ctx.addIssue({ code: "custom", message: "Bond amount must be a number with at most 2 decimals" });
      return z.NEVER;
    }
    return s;
  });

/** A grantor link must be a web address; "example.gov/x" gets https:// in front. */
const grantorLink = z
  .string()
  .trim()
  .max(PERMIT_LIMITS.grantorLink, {
    message: `Grantor link must be at most ${PERMIT_LIMITS.grantorLink} characters`,
  })
  .nullish()
  .transform((v, ctx) => {
    if (!v) return null;
    const candidate = /^[a-z][a-z0-9+.-]*:/i.test(v) ? v : `https://${v}`;
    try {
      const url = new URL(candidate);
      if (url.protocol === "http:" || url.protocol === "https:") return url.href;
    } catch {
      /* reported below */
    }
    ctx.addIssue({ code: "custom", message: "Grantor link must be a web address (https://...)" });
    return z.NEVER;
  });

export const PermitInputSchema = z
  .object({
    permit_number: requiredText("Permit Number", PERMIT_LIMITS.permitNumber),
    permit_name: requiredText("Permit Name", PERMIT_LIMITS.permitName),
    record_type: z.enum(RECORD_TYPES, { message: "Record Type is required" }),
    agency: requiredText("Agency", PERMIT_LIMITS.agency),
    /** The form's Required checkbox: Required, else In Waiting (DESIGN.md 6.2). */
    is_required: z.boolean().default(true),
    archived: z.boolean().default(false),
    project_id: optionalId,
    /** Only a super-admin names the company; everyone else's is their own. */
    company_id: optionalId,
    permit_application_date: optionalDate,
    issue_date: optionalDate,
    expiration_date: z
      .string({ message: "Expiration Date is required" })
      .min(1, { message: "Expiration Date is required" })
      .refine(isIsoDate, { message: DATE_MESSAGE }),
    /** Empty: the server sets today (in the company's time zone). */
    start_date: optionalDate,
    close_date: optionalDate,
    phase: optionalText("Phase", PERMIT_LIMITS.shortText),
    aka: optionalText("AKA", PERMIT_LIMITS.shortText),
    grantor_link: grantorLink,
    bond_amount: bondAmount,
    /**
     * The bond's surety (issue 12): one of the company's sureties by id, or a name typed free in
     * `surety_company`, matched case-insensitively to the company's sureties and created when new.
     * surety_id wins when both are sent.
     */
    surety_id: optionalId,
    surety_company: optionalText("Surety company", PERMIT_LIMITS.shortText),
    bond_number: optionalText("Bond number", PERMIT_LIMITS.shortText),
    guarantee_type: z
      .string()
      .nullish()
      .transform((v, ctx) => {
        if (!v) return null;
        if (!(GUARANTEE_TYPES as readonly string[]).includes(v)) {
          ctx.addIssue({ code: "custom", message: "Guarantee Type must be Performance or Maintenance" });
          return z.NEVER;
        }
        return v as GuaranteeType;
      }),
    /** 'Responsible Person': an active staff user of the permit's company (checked on the server). */
    responsible_user_id: optionalId,
    /** 'Expiry Rule' with its 'Days', and 'Renewal Lead Time (days)' (issue 11). */
    expiry_rule: ExpiryFields.expiry_rule.default("fixed"),
    expiry_days: ExpiryFields.expiry_days,
    renewal_lead_days: ExpiryFields.renewal_lead_days,
  })
  .superRefine(
    (v, ctx) => {
      checkExpiryDays(v, ctx);
      if (v.record_type === "bond" && !v.guarantee_type) {
        ctx.addIssue({ code: "custom", path: ["guarantee_type"], message: "Guarantee Type is required" });
      }
      // Checked against a start date the user gave; an empty one becomes today only on save.
      const { start_date: start, expiration_date: expiration } = v;
      if (
        typeof start === "string" &&
        isIsoDate(start) &&
        typeof expiration === "string" &&
        isIsoDate(expiration) &&
        expiration < start
      ) {
        ctx.addIssue({
          code: "custom",
          path: ["expiration_date"],
          message: "Expiration Date cannot be before the Start Date",
        });
      }
    },
    // Also when other fields failed, so the form shows every problem at once; the values may
    // then be raw input, hence the type checks above; but never on a body that is not an object.
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  );
/** What the form holds (strings for inputs) and the API accepts. */
export type PermitFormValues = z.input<typeof PermitInputSchema>;
/** What the server works with after validation. */
export type PermitInput = z.output<typeof PermitInputSchema>;

/** Field names a VALIDATION answer may name (the form puts each message on its field). */
export const PERMIT_INPUT_FIELDS = [
  "permit_number",
  "permit_name",
  "record_type",
  "agency",
  "is_required",
  "archived",
  "project_id",
  "company_id",
  "permit_application_date",
  "issue_date",
  "expiration_date",
  "start_date",
  "close_date",
  "phase",
  "aka",
  "grantor_link",
  "bond_amount",
  "surety_id",
  "surety_company",
  "bond_number",
  "guarantee_type",
  "responsible_user_id",
  "expiry_rule",
  "expiry_days",
  "renewal_lead_days",
] as const satisfies readonly (keyof PermitFormValues)[];

export const PROJECT_REQUIRED_MESSAGE = "Project is required";
/** The spec's message (section 5); the server answers the same through targetCompanyId. */
export const COMPANY_MISSING_MESSAGE = "Company ID is missing. Please select a company.";

// ---------------------------------------------------------------------------------------------
// Output

export const PermitCanSchema = z.object({
  edit: z.boolean(),
  delete: z.boolean(),
  comment: z.boolean(),
  upload: z.boolean(),
  viewInternalComments: z.boolean(),
});
export type PermitCan = z.infer<typeof PermitCanSchema>;

const day = z.string().nullable();

/** A permit's responsible person, by name. */
export const ResponsibleSchema = z.object({ id: z.uuid(), name: z.string() }).nullable();
/** Who acknowledged the current term, and when (a timestamp). */
export const PermitAcknowledgedSchema = z.object({ by: z.string(), at: z.string() }).nullable();

/** GET /api/permits/:id: every permit column (spec section 3) plus what the page needs around it. */
export const PermitDetailSchema = z.object({
  id: z.uuid(),
  permit_number: z.string(),
  permit_name: z.string(),
  agency: z.string().nullable(),
  status: z.enum(PERMIT_STATUSES),
  archived: z.boolean(),
  record_type: z.enum(RECORD_TYPES),
  permit_application_date: day,
  issue_date: day,
  expiration_date: day,
  start_date: day,
  close_date: day,
  permit_expires: z.boolean(),
  project_id: z.uuid().nullable(),
  company_id: z.uuid(),
  client_id: z.uuid().nullable(),
  /** numeric(14,2) as a string ("25000.00"), never a float. The original (penal) amount of a bond. */
  bond_amount: z.string().nullable(),
  /** The surety's name (from the sureties table; the legacy text when a bond has no surety row). */
  surety_company: z.string().nullable(),
  /** Bonds (issue 12): the surety, the ledger's status and current amount, the performance bond followed. */
  surety_id: z.uuid().nullable(),
  bond_status: (z.enum(BOND_STATUSES) as z.ZodType<BondStatus>).nullable(),
  current_amount: z.string().nullable(),
  maintenance_of_id: z.uuid().nullable(),
  bond_number: z.string().nullable(),
  guarantee_type: z.enum(GUARANTEE_TYPES).nullable(),
  grantor_link: z.string().nullable(),
  phase: z.string().nullable(),
  aka: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  project: z
    .object({ id: z.uuid(), name: z.string(), project_number: z.string().nullable(), status: z.string() })
    .nullable(),
  client: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  company: z.object({ id: z.uuid(), name: z.string() }),
  /** Expired once the expiration date has passed in the company's time zone (DESIGN.md 6.10). */
  display_status: z.string(),
  /** Comments this actor may see (a client-user's count leaves out internal ones). */
  comment_count: z.number().int().nonnegative(),
  responsible: ResponsibleSchema,
  expiry_rule: z.enum(EXPIRY_RULES),
  expiry_days: z.number().int().nullable(),
  renewal_lead_days: z.number().int().nullable(),
  /** Expiration date minus the lead time; null without a lead time. */
  renew_by_date: day,
  /** The current term (1 = the original). */
  term_no: z.number().int().positive(),
  acknowledged: PermitAcknowledgedSchema,
  /** How a closed permit ended ('Close Permit'). */
  final_status: z.enum(FINAL_STATUSES).nullable(),
  can: PermitCanSchema,
});
export type PermitDetail = z.infer<typeof PermitDetailSchema>;

export const URGENCIES = ["expired", "expiring"] as const;

/** One row of the All Permits table. */
export const PermitListItemSchema = z.object({
  id: z.uuid(),
  permit_number: z.string(),
  permit_name: z.string(),
  agency: z.string().nullable(),
  status: z.enum(PERMIT_STATUSES),
  display_status: z.string(),
  record_type: z.enum(RECORD_TYPES),
  archived: z.boolean(),
  start_date: day,
  permit_application_date: day,
  expiration_date: day,
  company: z.object({ id: z.uuid(), name: z.string() }),
  /** The row's project and client, for the flat list (Group by: None) and the cards. */
  project: z.object({ id: z.uuid(), name: z.string(), project_number: z.string().nullable() }).nullable(),
  client: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  comment_count: z.number().int().nonnegative(),
  responsible: ResponsibleSchema,
  renew_by_date: day,
  acknowledged: PermitAcknowledgedSchema,
  /** Row highlight against today in the permit's company time zone. */
  urgency: z.enum(URGENCIES).nullable(),
  can: PermitCanSchema.pick({ edit: true, delete: true }),
});
export type PermitListItem = z.infer<typeof PermitListItemSchema>;

export const PermitGroupProjectSchema = z.object({
  /** Null for permits without a project. */
  project: z.object({ id: z.uuid(), name: z.string(), project_number: z.string().nullable() }).nullable(),
  permits: z.array(PermitListItemSchema),
});
export const PermitGroupSchema = z.object({
  /** Null for permits without a client. */
  client: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  projects: z.array(PermitGroupProjectSchema),
});
export type PermitGroup = z.infer<typeof PermitGroupSchema>;

/**
 * GET /api/permits: one server-sorted page. Grouped (the default), `groups` holds it by client
 * then project in the order the groups first appear on the page (so the chosen sort still reads
 * top to bottom) and `items` is empty; with Group by: None, `items` is the page in order and
 * `groups` is empty.
 */
export const PermitListSchema = z.object({
  group_by: z.enum(PERMIT_GROUPINGS),
  groups: z.array(PermitGroupSchema),
  items: z.array(PermitListItemSchema),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  page_size: z.number().int().positive(),
});
export type PermitList = z.infer<typeof PermitListSchema>;

export { PERMIT_SORT_FIELDS, type PermitSortField };

const flag = z
  .enum(["true", "false", "1", "0", ""], { message: "Must be true or false" })
  .optional()
  .transform((v) => v === "true" || v === "1");

const optionalFilterDate = (label: string) =>
  z
    .union([z.string().refine(isIsoDate, { message: `${label}: ${DATE_MESSAGE}` }), z.literal("")])
    .optional()
    .transform((v) => (v ? v : null));

const UUID = z.uuid();
const optionalFilterId = z
  .string()
  .refine((v) => v === "" || UUID.safeParse(v).success, { message: "Must be a valid id" })
  .optional()
  .transform((v) => (v ? v : null));

/** One of `values`, or "" for none (a URL keeps an emptied select as ""). */
const optionalChoice = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z
    .enum(["", ...values] as unknown as readonly ["", ...T], { message })
    .optional()
    .transform((v) => (v ? (v as T[number]) : null));

/** Filters shared by the list, the summary and the export, exactly as the page keeps them in its URL. */
const PermitFilterFields = z.object({
  show_archived: flag,
  show_non_required: flag,
  record_type: z
    .union([z.enum(RECORD_TYPES, { message: "Must be permit or bond" }), z.literal("")])
    .optional()
    .transform((v) => (v ? v : null)),
  /** Searches permit number, permit name, agency, and project name and number. */
  q: z
    .string()
    .trim()
    .max(PERMIT_LIMITS.searchText, { message: `Must be at most ${PERMIT_LIMITS.searchText} characters` })
    .optional()
    .transform((v) => (v ? v : null)),
  /** A stored status; when set it replaces the Show Non-Required rule (N/A never shows). */
  status: optionalChoice(STATUS_FILTER_VALUES, "Unknown status"),
  project_id: optionalFilterId,
  client_id: optionalFilterId,
  /** An agency exactly as the filter's options list it (trimmed). */
  agency: z
    .string()
    .trim()
    .max(PERMIT_LIMITS.agency, { message: `Must be at most ${PERMIT_LIMITS.agency} characters` })
    .optional()
    .transform((v) => (v ? v : null)),
  /** Expiration date range, both ends included. */
  expires_from: optionalFilterDate("Expires from"),
  expires_to: optionalFilterDate("Expires to"),
  /** The responsible person: a user id, or "me" for the signed-in user. */
  responsible: z
    .string()
    .refine((v) => v === "" || v === "me" || UUID.safeParse(v).success, {
      message: "Must be a user id or me",
    })
    .optional()
    .transform((v) => (v ? v : null)),
});

/** An expiration range must not end before it starts (checked after the fields themselves). */
function checkExpiryRange(
  v: { expires_from: string | null; expires_to: string | null },
  ctx: z.RefinementCtx,
) {
  if (v.expires_from && v.expires_to && v.expires_to < v.expires_from) {
    ctx.addIssue({
      code: "custom",
      path: ["expires_to"],
      message: "Expires to cannot be before Expires from",
    });
  }
}

export const PermitFilterSchema = PermitFilterFields.superRefine(checkExpiryRange);
export type PermitFilter = z.output<typeof PermitFilterSchema>;

/** The list's own choices beyond the filters it shares with the summary (also the export's). */
const ListChoices = {
  /** A clicked tile: the list shows that tile's permits (the summary keeps counting all tiles). */
  tile: optionalChoice(PERMIT_TILES, "Unknown tile"),
  group: z.enum(PERMIT_GROUPINGS, { message: "Must be client_project or none" }).default(DEFAULT_GROUPING),
  /** Missing: creation order (created_at, then id; DESIGN.md 6.9). */
  sort: z.enum(PERMIT_SORT_FIELDS, { message: "Unknown sort column" }).optional(),
  dir: z.enum(SORT_DIRECTIONS, { message: "Must be asc or desc" }).default("asc"),
};

export const PermitListQuerySchema = PermitFilterFields.extend({
  ...ListChoices,
  page: z.coerce.number({ message: "Must be a page number" }).int().min(1).max(100_000).default(1),
  page_size: z.coerce
    .number({ message: "Must be a number" })
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE),
}).superRefine(checkExpiryRange);
export type PermitListQuery = z.output<typeof PermitListQuerySchema>;
/** The list's filters with its tile: what the list's rows (and the export) are chosen by. */
export type PermitListFilter = PermitFilter & { tile?: PermitListQuery["tile"] };

/** GET /api/permits/export: the list's view without paging, and the file format. */
export const PermitExportQuerySchema = PermitFilterFields.extend({
  ...ListChoices,
  format: z.enum(["csv", "xlsx"], { message: "Must be csv or xlsx" }).default("csv"),
}).superRefine(checkExpiryRange);

/** GET /api/permits/summary: the tiles and both charts, over the list's filters. */
export const PermitSummarySchema = z.object({
  total: z.number().int().nonnegative(),
  in_review: z.number().int().nonnegative(),
  active: z.number().int().nonnegative(),
  /** Permits with a close date (DESIGN.md 6.1). */
  closed: z.number().int().nonnegative(),
  /** Expiring today or within the next 30 days. */
  expiring_soon: z.number().int().nonnegative(),
  /** Expiration date before today. */
  expired: z.number().int().nonnegative(),
  /** Renew-by date within 30 days or passed, not closed (issue 11). */
  renewal_due: z.number().int().nonnegative(),
  by_status: z.array(
    z.object({ category: z.enum(["In Progress", "In Review", "Active"]), count: z.number().int() }),
  ),
  /** The agencies with the most permits; the rest add up under `other`. */
  by_agency: z.array(z.object({ agency: z.string(), count: z.number().int() })),
  other_agencies: z.number().int().nonnegative(),
});
export type PermitSummary = z.infer<typeof PermitSummarySchema>;

export const CompanyQuerySchema = z.object({
  company_id: optionalId,
});

export const PermitAgenciesSchema = z.object({ agencies: z.array(z.string()) });
export type PermitAgencies = z.infer<typeof PermitAgenciesSchema>;

/** A super-admin names the company, or a project of it (the form opened from a project). */
export const PermitFormOptionsQuerySchema = z.object({
  company_id: optionalId,
  project_id: optionalId,
});

/** GET /api/permits/form-options: the company's projects, and for a super-admin the companies. */
export const PermitFormOptionsSchema = z.object({
  /** The company the projects belong to; null when a super-admin has not chosen one yet. */
  company_id: z.uuid().nullable(),
  projects: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      project_number: z.string().nullable(),
      client_id: z.uuid().nullable(),
      client_name: z.string().nullable(),
    }),
  ),
  companies: z.array(z.object({ id: z.uuid(), name: z.string() })),
  /** The company's active staff, the choices of 'Responsible Person'. */
  staff: z.array(z.object({ id: z.uuid(), name: z.string() })),
});
export type PermitFormOptions = z.infer<typeof PermitFormOptionsSchema>;

/**
 * GET /api/permits/filter-options: the choices of the list's Project, Client and Agency filters,
 * within what the actor may see (a client-user: its clients' projects and permits only).
 */
export const PermitFilterOptionsSchema = z.object({
  projects: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      project_number: z.string().nullable(),
      client_id: z.uuid().nullable(),
      /** Named for a super-admin, whose choices span companies; null otherwise. */
      company_name: z.string().nullable(),
    }),
  ),
  clients: z.array(z.object({ id: z.uuid(), name: z.string(), company_name: z.string().nullable() })),
  agencies: z.array(z.string()),
  /** The Responsible filter: the people responsible for permits the actor can see. */
  responsible: z.array(z.object({ id: z.uuid(), name: z.string(), company_name: z.string().nullable() })),
  /** Whether the filter offers 'Me': the actor is staff who may be a permit's responsible person. */
  can_be_responsible: z.boolean(),
});
export type PermitFilterOptions = z.infer<typeof PermitFilterOptionsSchema>;
