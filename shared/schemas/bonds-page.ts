import { z } from "zod";
import { BOND_LIMITS } from "../domain/bond-fields.ts";
import { BOND_SORT_FIELDS, BOND_STATUSES, type BondStatus } from "../domain/bonds.ts";
import { GUARANTEE_TYPES } from "../domain/statuses.ts";
import { ScopeContentsSchema } from "./scope-contents.ts";
import { exportFormat, filterId, filterText, optionalChoice, pageFields, sortDirection } from "./fields.ts";

// The Bonds page (issue 12): GET /api/bonds, /api/bonds/export, /api/bonds/schedule.xlsx. Amounts
// travel as strings with two decimals ("25000.00").

/** The Bonds page's filters, as it keeps them in its URL (the export and the schedule take them too). */
export const BondFilterSchema = z.object({
  /** Super-admin: one company (else every company, and `currency` may be null). */
  company_id: filterId(),
  /** A surety id, or "none" for bonds without a surety. */
  surety_id: filterId({ also: ["none"], message: "Must be a surety id or none" }),
  client_id: filterId(),
  project_id: filterId(),
  status: optionalChoice(BOND_STATUSES, "Unknown status"),
  guarantee_type: optionalChoice(GUARANTEE_TYPES, "Must be Performance or Maintenance"),
  /** Searches permit number and name, bond number, agency, surety, project and client names. */
  q: filterText(BOND_LIMITS.search),
});
export type BondFilter = z.output<typeof BondFilterSchema>;

const SortChoices = {
  sort: z.enum(BOND_SORT_FIELDS, { message: "Unknown sort column" }).optional(),
  dir: sortDirection(),
};

export const BondListQuerySchema = BondFilterSchema.extend({ ...SortChoices, ...pageFields() });
export type BondListQuery = z.output<typeof BondListQuerySchema>;

/** GET /api/bonds/export: the current view (filters and sort), unpaged, as CSV or Excel. */
export const BondExportQuerySchema = BondFilterSchema.extend({ ...SortChoices, format: exportFormat() });
export type BondExportQuery = z.output<typeof BondExportQuerySchema>;

/** GET /api/bonds/schedule.xlsx: the 'Bond Schedule' of the open bonds within the filters. */
export const BondScheduleQuerySchema = BondFilterSchema;

const amountOut = z.string();
const named = z.object({ id: z.uuid(), name: z.string() });

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
  issue_date: z.string().nullable(),
  expiration_date: z.string().nullable(),
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
  /** The amount's currency (a row is one company's, or one currency's bonds without a surety). */
  currency: z.string(),
  /**
   * Whose surety it is, when the view spans companies (a super-admin who chose none): sureties are
   * each company's own, so two companies' "Liberty Mutual" are two rows (issue 25). Null otherwise.
   */
  company: z.object({ id: z.uuid(), name: z.string() }).nullable(),
});
export type BySurety = z.infer<typeof BySuretySchema>;

/** Open exposure by client or project: the 10 largest. */
export const ExposureRowSchema = z.object({
  id: z.uuid().nullable(),
  name: z.string(),
  amount: amountOut,
  count: z.number().int().nonnegative(),
  /** The amount's currency (a row is one company's, or one currency's bonds without one). */
  currency: z.string(),
});
export type ExposureRow = z.infer<typeof ExposureRowSchema>;

/** GET /api/bonds: one server-sorted page, with the tiles and breakdowns of the whole view. */
export const BondListSchema = z.object({
  items: z.array(BondListItemSchema),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  page_size: z.number().int().positive(),
  /**
   * The view's currency; null when a super-admin's view spans companies of different currencies.
   * With no bond in the view: the currency of the companies in scope when they share one, else the
   * default (issue 25: an amount is never shown without its currency).
   */
  currency: z.string().nullable(),
  summary: BondSummarySchema,
  /** With `currency` null: the tiles' amounts per currency (empty otherwise). */
  totals_by_currency: z.array(
    z.object({ currency: z.string(), open_exposure: amountOut, collateral_held: amountOut.nullable() }),
  ),
  /** What exists within the actor's scope, whatever the filters (issue 25). */
  in_scope: ScopeContentsSchema,
  by_surety: z.array(BySuretySchema),
  by_client: z.array(ExposureRowSchema),
  by_project: z.array(ExposureRowSchema),
  can: z.object({ export: z.boolean(), manage_sureties: z.boolean() }),
});
export type BondList = z.infer<typeof BondListSchema>;
