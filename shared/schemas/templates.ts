import { z } from "zod";
import { EXPIRY_RULES } from "../domain/lifecycle.ts";
import { TEMPLATE_STATUSES } from "../domain/statuses.ts";
import { IdSchema } from "./common.ts";
import { TemplateConditionInputSchema, TemplateConditionSchema } from "./conditions.ts";
import { checkExpiryDays, ExpiryFields } from "./expiry-fields.ts";
import { optionalText, requiredText, tooLongMessage } from "./fields.ts";

export const TEMPLATE_NAME_MAX = 200;
export const AGENCY_MAX = 200;
/** Most conditions one template may carry (issue 29). */
export const TEMPLATE_CONDITIONS_MAX = 50;
const TemplateConditionsSchema = z
  .array(TemplateConditionInputSchema)
  .max(TEMPLATE_CONDITIONS_MAX, { message: `At most ${TEMPLATE_CONDITIONS_MAX} conditions` });

export const TemplateStatusSchema = z.enum(TEMPLATE_STATUSES, { message: "Status must be Required or N/A" });

const TemplateNameSchema = requiredText("Template name", TEMPLATE_NAME_MAX, { typeMessage: false });

const AgencySchema = optionalText("Agency", AGENCY_MAX);

/** Company of a template request: named by a super-admin, ignored for everyone else. */
export const TemplateListQuerySchema = z.object({ company_id: IdSchema.optional() });

/** POST /api/templates (the add row). Fields are trimmed before insert (spec section 5). */
export const TemplateCreateSchema = z
  .object({
    company_id: IdSchema.nullish(),
    name: TemplateNameSchema,
    agency: AgencySchema,
    status: TemplateStatusSchema.default("Required"),
    active: z.boolean().default(true),
    /** The expiry defaults of the permits made from the template (issue 11). */
    expiry_rule: ExpiryFields.expiry_rule.default("fixed"),
    expiry_days: ExpiryFields.expiry_days,
    renewal_lead_days: ExpiryFields.renewal_lead_days,
    /** Issue 29: the conditions each permit made from the template gets (with its first tasks). */
    conditions: TemplateConditionsSchema.default([]),
  })
  .superRefine(checkExpiryDays);
export type TemplateCreate = z.input<typeof TemplateCreateSchema>;

/**
 * PUT /api/templates/:id (inline edit: name and agency, and the expiry defaults). The defaults
 * are optional: a body without the rule leaves the three as they are.
 */
export const TemplateUpdateSchema = z
  .object({
    name: TemplateNameSchema,
    agency: AgencySchema,
    expiry_rule: ExpiryFields.expiry_rule.optional(),
    expiry_days: ExpiryFields.expiry_days,
    renewal_lead_days: ExpiryFields.renewal_lead_days,
    /** Issue 29: replaces the template's conditions (in this order); missing leaves them as they are. */
    conditions: TemplateConditionsSchema.optional(),
  })
  .superRefine(checkExpiryDays);
export type TemplateUpdate = z.input<typeof TemplateUpdateSchema>;

/** PATCH /api/templates/:id: the status switch and the Active toggle, each saved at once. */
export const TemplatePatchSchema = z
  .object({ status: TemplateStatusSchema.optional(), active: z.boolean().optional() })
  .refine((v) => v.status !== undefined || v.active !== undefined, { message: "Nothing to change" });
export type TemplatePatch = z.infer<typeof TemplatePatchSchema>;

export const TemplateSchema = z.object({
  id: IdSchema,
  company_id: IdSchema,
  name: z.string(),
  agency: z.string().nullable(),
  status: TemplateStatusSchema,
  /** Active templates become permits of every new project of the company. */
  active: z.boolean(),
  expiry_rule: z.enum(EXPIRY_RULES),
  expiry_days: z.number().int().nullable(),
  renewal_lead_days: z.number().int().nullable(),
  /** Issue 29: its conditions in order (copied onto the permits made from it; earlier permits keep theirs). */
  conditions: z.array(TemplateConditionSchema),
  can: z.object({ edit: z.boolean(), delete: z.boolean() }),
});
export type Template = z.infer<typeof TemplateSchema>;

export const TemplateListSchema = z.object({ templates: z.array(TemplateSchema) });
export const TemplateResponseSchema = z.object({ template: TemplateSchema });

/** The add row and the inline edit of the Permit Templates screen. */
export const TemplateFormSchema = z
  .object({
    name: TemplateNameSchema,
    agency: z
      .string()
      .trim()
      .max(AGENCY_MAX, { message: tooLongMessage("Agency", AGENCY_MAX) }),
    status: TemplateStatusSchema,
    expiry_rule: ExpiryFields.expiry_rule,
    expiry_days: ExpiryFields.expiry_days,
    renewal_lead_days: ExpiryFields.renewal_lead_days,
  })
  .superRefine(checkExpiryDays);
export type TemplateForm = z.input<typeof TemplateFormSchema>;
