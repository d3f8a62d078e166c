import { z } from "zod";
import { BOND_STATUSES, type BondStatus } from "../domain/bonds.ts";
import { EXPIRY_RULES, FINAL_STATUSES } from "../domain/lifecycle.ts";
import { GUARANTEE_TYPES, PERMIT_STATUSES, RECORD_TYPES } from "../domain/statuses.ts";
import { PermitContactSchema } from "./contacts.ts";

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
  /** The contacts it lists (issue 27), by name; e-mail and phone for staff only. */
  contacts: z.array(PermitContactSchema),
  can: PermitCanSchema,
});
export type PermitDetail = z.infer<typeof PermitDetailSchema>;
