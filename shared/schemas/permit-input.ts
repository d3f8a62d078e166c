import { z } from "zod";
import { isIsoDate } from "../domain/dates.ts";
import { PERMIT_LIMITS } from "../domain/permit-fields.ts";
import { FINAL_STATUSES, type FinalStatus } from "../domain/lifecycle.ts";
import { GUARANTEE_TYPES, RECORD_TYPES, type GuaranteeType } from "../domain/statuses.ts";
import { contactIdsField } from "./contacts.ts";
import { checkExpiryDays, ExpiryFields } from "./expiry-fields.ts";
import { isoDate, money, optionalId, optionalIsoDate, optionalText, requiredText } from "./fields.ts";

// The permit form and POST/PUT /api/permits share this schema.

export const FINAL_STATUS_REQUIRED = "Final Status is required when a Close Date is set";

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
    project_id: optionalId(),
    /** Only a super-admin names the company; everyone else's is their own. */
    company_id: optionalId(),
    permit_application_date: optionalIsoDate(),
    issue_date: optionalIsoDate(),
    expiration_date: isoDate({ required: "Expiration Date" }),
    /** Empty: the server sets today (in the company's time zone). */
    start_date: optionalIsoDate(),
    close_date: optionalIsoDate(),
    /** How the permit ended ('Final Status'): required with a Close Date, dropped without one. */
    final_status: z
      .string()
      .nullish()
      .transform((v, ctx) => {
        if (!v) return null;
        if (!(FINAL_STATUSES as readonly string[]).includes(v)) {
          ctx.addIssue({
            code: "custom",
            message: `Final Status must be one of ${FINAL_STATUSES.join(", ")}`,
          });
          return z.NEVER;
        }
        return v as FinalStatus;
      }),
    phase: optionalText("Phase", PERMIT_LIMITS.shortText),
    aka: optionalText("AKA", PERMIT_LIMITS.shortText),
    grantor_link: grantorLink,
    /** Up to 12 digits before the point and 2 after (the column is numeric(14,2)). */
    bond_amount: money("Bond amount"),
    /**
     * The bond's surety (issue 12): one of the company's sureties by id, or a name typed free in
     * `surety_company`, matched case-insensitively to the company's sureties and created when new.
     * surety_id wins when both are sent.
     */
    surety_id: optionalId(),
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
    responsible_user_id: optionalId(),
    /** 'Expiry Rule' with its 'Days', and 'Renewal Lead Time (days)' (issue 11). */
    expiry_rule: ExpiryFields.expiry_rule.default("fixed"),
    expiry_days: ExpiryFields.expiry_days,
    renewal_lead_days: ExpiryFields.renewal_lead_days,
    /**
     * 'Contacts' (issue 27): the company's contacts the permit lists (its agency contact, its
     * surety agent). Left out, an update keeps the ones it has; [] takes them all off.
     */
    contact_ids: contactIdsField(),
  })
  .superRefine(
    (v, ctx) => {
      checkExpiryDays(v, ctx);
      // A closed permit says how it ended, as 'Close Permit' does.
      if (typeof v.close_date === "string" && v.close_date && !v.final_status) {
        ctx.addIssue({ code: "custom", path: ["final_status"], message: FINAL_STATUS_REQUIRED });
      }
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
  "final_status",
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
  "contact_ids",
] as const satisfies readonly (keyof PermitFormValues)[];

export const PROJECT_REQUIRED_MESSAGE = "Project is required";
/** The spec's message (section 5); the server answers the same through targetCompanyId. */
export const COMPANY_MISSING_MESSAGE = "Company ID is missing. Please select a company.";
