import type { Control, Resolver } from "react-hook-form";
import {
  COMPANY_MISSING_MESSAGE,
  PERMIT_INPUT_FIELDS,
  PROJECT_REQUIRED_MESSAGE,
  PermitInputSchema,
  type PermitDetail,
  type PermitFormValues,
  type PermitInput,
} from "../../../../shared/schemas/permits.ts";
import { formResolver } from "../../../lib/form-resolver.ts";

/** Checks that need data the schema does not have: the company's projects, the super-admin's company. */
export interface PermitFormContext {
  hasProjects: boolean;
  needsCompany: boolean;
}

export type PermitFormControl = Control<PermitFormValues, PermitFormContext, PermitInput>;
export type PermitFieldName = (typeof PERMIT_INPUT_FIELDS)[number];

const schemaResolver = formResolver(PermitInputSchema);

/** PermitInputSchema, plus the company and project checks that depend on the form's context. */
export const permitFormResolver: Resolver<PermitFormValues, PermitFormContext, PermitInput> = async (
  values,
  context,
  options,
) => {
  const result = await schemaResolver(values, context, options);
  const extra: Record<string, { type: string; message: string }> = {};
  if (context?.needsCompany && !values.company_id)
    extra.company_id = { type: "required", message: COMPANY_MISSING_MESSAGE };
  if (context?.hasProjects && !values.project_id)
    extra.project_id = { type: "required", message: PROJECT_REQUIRED_MESSAGE };
  if (!Object.keys(extra).length) return result;
  return { values: {}, errors: { ...extra, ...result.errors } };
};

/** A new permit's form. */
export const EMPTY_PERMIT_VALUES: PermitFormValues = {
  permit_number: "",
  permit_name: "",
  record_type: "permit",
  agency: "",
  is_required: true,
  archived: false,
  project_id: "",
  company_id: "",
  permit_application_date: "",
  issue_date: "",
  expiration_date: "",
  start_date: "",
  close_date: "",
  final_status: "",
  phase: "",
  aka: "",
  grantor_link: "",
  bond_amount: "",
  surety_id: "",
  surety_company: "",
  bond_number: "",
  guarantee_type: "",
  responsible_user_id: "",
  expiry_rule: "fixed",
  expiry_days: "",
  renewal_lead_days: "",
  contact_ids: [],
};

/** The form's values for a saved permit: nulls become empty inputs, the status the Required box. */
export function permitFormValues(permit: PermitDetail): PermitFormValues {
  return {
    permit_number: permit.permit_number,
    permit_name: permit.permit_name,
    record_type: permit.record_type,
    agency: permit.agency ?? "",
    is_required: permit.status === "Required",
    archived: permit.archived,
    project_id: permit.project_id ?? "",
    company_id: permit.company_id,
    permit_application_date: permit.permit_application_date ?? "",
    issue_date: permit.issue_date ?? "",
    expiration_date: permit.expiration_date ?? "",
    start_date: permit.start_date ?? "",
    close_date: permit.close_date ?? "",
    final_status: permit.final_status ?? "",
    phase: permit.phase ?? "",
    aka: permit.aka ?? "",
    grantor_link: permit.grantor_link ?? "",
    bond_amount: permit.bond_amount ?? "",
    surety_id: permit.surety_id ?? "",
    surety_company: permit.surety_company ?? "",
    bond_number: permit.bond_number ?? "",
    guarantee_type: permit.guarantee_type ?? "",
    responsible_user_id: permit.responsible?.id ?? "",
    expiry_rule: permit.expiry_rule,
    expiry_days: permit.expiry_days === null ? "" : String(permit.expiry_days),
    renewal_lead_days: permit.renewal_lead_days === null ? "" : String(permit.renewal_lead_days),
    contact_ids: permit.contacts.map((c) => c.id),
  };
}

/** A VALIDATION answer is shown on its fields; anything else in the alert above the form. */
export function hasPermitFieldErrors(error: unknown): boolean {
  const fields = (error as { fields?: Record<string, string> } | null)?.fields;
  return !!fields && Object.keys(fields).some((f) => (PERMIT_INPUT_FIELDS as readonly string[]).includes(f));
}
