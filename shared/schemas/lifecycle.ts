import { z } from "zod";
import {
  FINAL_STATUSES,
  INSPECTION_RESULTS,
  TERM_KINDS,
  EXPIRY_RULES,
  type FinalStatus,
  type InspectionResult,
} from "../domain/lifecycle.ts";
import { money, optionalDate, optionalText, requiredDate, requiredText } from "./fields.ts";

// The permit lifecycle (issue 11): renew, extend, record an inspection, acknowledge, close.

/** Up to 10 digits before the point and 2 after (numeric(12,2)). */
const fee = money("Renewal Fee", {
  digits: 10,
  message: "Renewal Fee must be a positive amount with at most 2 decimals",
});

export const LIFECYCLE_LIMITS = { permitNumber: 100, note: 2000, reason: 500, shortText: 200 } as const;

/**
 * A note's 'Internal' switch (issue 25), as a comment's: an internal note, fee or reason is for
 * staff only; a client-user never receives it from any answer. Ignored (false) for whoever may not
 * read internal comments.
 */
const internal = (byDefault: boolean) => z.boolean().default(byDefault);

/** The 'Renew Permit' dialog. The new expiration must come after the current one (checked on the server). */
export const RenewalInputSchema = z.object({
  new_expiration_date: requiredDate("New Expiration Date"),
  new_issue_date: optionalDate("New Issue Date"),
  /** Empty keeps the current permit number. */
  new_permit_number: optionalText("New Permit Number", LIFECYCLE_LIMITS.permitNumber),
  renewal_fee: fee,
  /** A fee is internal unless the switch is turned off. */
  renewal_fee_internal: internal(true),
  note: optionalText("Note", LIFECYCLE_LIMITS.note),
  /** A note is shown to the client-users of the permit unless 'Internal' (as a comment). */
  note_internal: internal(false),
});
export type RenewalInput = z.output<typeof RenewalInputSchema>;
export type RenewalFormValues = z.input<typeof RenewalInputSchema>;

/** The 'Extend Permit' dialog: same term, a later date. */
export const ExtensionInputSchema = z.object({
  new_expiration_date: requiredDate("New Expiration Date"),
  reason: requiredText("Reason", LIFECYCLE_LIMITS.reason),
  reason_internal: internal(false),
});
export type ExtensionInput = z.output<typeof ExtensionInputSchema>;
export type ExtensionFormValues = z.input<typeof ExtensionInputSchema>;

/** The 'Record Inspection' dialog. */
export const InspectionInputSchema = z.object({
  inspection_type: requiredText("Inspection Type", LIFECYCLE_LIMITS.shortText),
  date: requiredDate("Date"),
  result: z.enum(INSPECTION_RESULTS, { message: "Result is required" }),
  inspector: optionalText("Inspector", LIFECYCLE_LIMITS.shortText),
  notes: optionalText("Notes", LIFECYCLE_LIMITS.note),
  notes_internal: internal(false),
});
export type InspectionInput = z.output<typeof InspectionInputSchema>;
export type InspectionFormValues = z.input<typeof InspectionInputSchema>;

/** The 'Close Permit' dialog. */
export const CloseInputSchema = z.object({
  close_date: requiredDate("Close Date"),
  final_status: z.enum(FINAL_STATUSES, { message: "Final Status is required" }),
  /**
   * Issue 29: the permit's open condition tasks become Not Applicable ("Not Applicable – permit
   * closed"). Without it, a permit with open tasks is not closed: 409 OPEN_TASKS, so the dialog asks.
   */
  closeOpenTasks: z.boolean().optional(),
});
export type CloseInput = z.output<typeof CloseInputSchema>;
export type CloseFormValues = z.input<typeof CloseInputSchema>;

// ---------------------------------------------------------------------------------------------
// Output

const day = z.string().nullable();

/**
 * An extension of a term (issue 25): the date it moved the term's expiry to, the one it replaced
 * (shown struck through), the day it was recorded (in the company's zone) and why.
 */
export const TermExtensionSchema = z.object({
  id: z.uuid(),
  expiration_date: day,
  previous_expiration_date: day,
  extended_on: z.string(),
  /** An internal reason reaches staff only (a client-user gets null and false). */
  reason: z.string().nullable(),
  reason_internal: z.boolean(),
  created_by_name: z.string(),
  created_at: z.string(),
});
export type TermExtension = z.infer<typeof TermExtensionSchema>;

/**
 * One term (issue 25: one row per term): its original or renewal with the expiry it has now and,
 * in order, the extensions that moved it there. Every stored row is kept; the response groups them.
 */
export const TermSchema = z.object({
  id: z.uuid(),
  term_no: z.number().int().positive(),
  kind: z.enum(TERM_KINDS),
  permit_number: z.string(),
  issue_date: day,
  /** The term's expiry now: its last extension's, else its own. */
  expiration_date: day,
  /** The day the term ended (the renewal after it, or the close); null while it runs. */
  ended_on: day,
  /**
   * An internal fee, note or reason reaches staff only, with its flag true; a client-user gets null
   * in its place and the flag false, as it never receives an internal comment.
   */
  renewal_fee: z.string().nullable(),
  renewal_fee_internal: z.boolean(),
  note: z.string().nullable(),
  note_internal: z.boolean(),
  reason: z.string().nullable(),
  reason_internal: z.boolean(),
  created_by_name: z.string(),
  created_at: z.string(),
  extensions: z.array(TermExtensionSchema),
});
export type Term = z.infer<typeof TermSchema>;

export const InspectionSchema = z.object({
  id: z.uuid(),
  inspection_type: z.string(),
  date: z.string(),
  result: z.enum(INSPECTION_RESULTS) as z.ZodType<InspectionResult>,
  inspector: z.string().nullable(),
  /** Internal notes reach staff only (a client-user gets null and false). */
  notes: z.string().nullable(),
  notes_internal: z.boolean(),
  created_by_name: z.string(),
  created_at: z.string(),
});
export type Inspection = z.infer<typeof InspectionSchema>;

export const AcknowledgementSchema = z.object({ by: z.string(), at: z.string() });
export type Acknowledgement = z.infer<typeof AcknowledgementSchema>;

export const LifecycleCanSchema = z.object({
  renew: z.boolean(),
  extend: z.boolean(),
  inspect: z.boolean(),
  acknowledge: z.boolean(),
  close: z.boolean(),
});
export type LifecycleCan = z.infer<typeof LifecycleCanSchema>;

/** GET /api/permits/:id/lifecycle: the permit's terms, inspections, acknowledgement and closing. */
export const LifecycleSchema = z.object({
  term_no: z.number().int().positive(),
  /**
   * The permit's fields a step may change that its detail shows besides the lifecycle's own (a
   * renewal's new number and issue date; the status chip, Expired once the date has passed in the
   * company's zone), so the page takes a step's answer without fetching the permit again.
   */
  permit_number: z.string(),
  issue_date: day,
  display_status: z.string(),
  expiration_date: day,
  expiry_rule: z.enum(EXPIRY_RULES),
  expiry_days: z.number().int().nullable(),
  renewal_lead_days: z.number().int().nullable(),
  renew_by_date: day,
  acknowledged: AcknowledgementSchema.nullable(),
  /** Set once the permit has a close date (from 'Close Permit', or the form's Close Date). */
  closed: z
    .object({
      close_date: z.string(),
      final_status: (z.enum(FINAL_STATUSES) as z.ZodType<FinalStatus>).nullable(),
    })
    .nullable(),
  terms: z.array(TermSchema),
  inspections: z.array(InspectionSchema),
  /** Issue 29: how many open condition tasks the permit has ('Close Permit' asks before closing them). */
  open_tasks: z.number().int().nonnegative(),
  can: LifecycleCanSchema,
});
export type Lifecycle = z.infer<typeof LifecycleSchema>;

/** What an acknowledge link (from a reminder e-mail) shows before and after the click. */
export const AcknowledgeLinkSchema = z.object({
  permit_name: z.string(),
  permit_number: z.string(),
  company_name: z.string(),
  expiration_date: day,
  renew_by_date: day,
  recipient_name: z.string(),
  acknowledged: AcknowledgementSchema.nullable(),
});
export type AcknowledgeLink = z.infer<typeof AcknowledgeLinkSchema>;

export const AcknowledgeTokenParamsSchema = z.object({
  token: z.string().min(1).max(400),
});
