import type { PermitFormValues } from "../../../shared/schemas/permit-input.ts";
import type { PermitRow } from "./permit-access.ts";

/**
 * The permit form's values of a stored permit, as the form would send them unchanged: a change to
 * some fields (accepting a document's suggestions, issue 28) goes through the same validation and
 * update as the form (updatePermit), the rest as they are. Contacts are left out: kept.
 */
export function permitInputOf(row: PermitRow): PermitFormValues {
  return {
    permit_number: row.permitNumber,
    permit_name: row.permitName,
    record_type: row.recordType as PermitFormValues["record_type"],
    agency: row.agency ?? "",
    is_required: row.status === "Required",
    archived: row.archived,
    project_id: row.projectId,
    company_id: row.companyId,
    permit_application_date: row.permitApplicationDate,
    issue_date: row.issueDate,
    expiration_date: row.expirationDate ?? "",
    start_date: row.startDate,
    close_date: row.closeDate,
    final_status: row.finalStatus,
    phase: row.phase,
    aka: row.aka,
    grantor_link: row.grantorLink,
    bond_amount: row.bondAmount,
    surety_id: row.suretyId,
    surety_company: row.suretyCompany,
    bond_number: row.bondNumber,
    guarantee_type: row.guaranteeType,
    responsible_user_id: row.responsibleUserId,
    expiry_rule: row.expiryRule as PermitFormValues["expiry_rule"],
    expiry_days: row.expiryDays,
    renewal_lead_days: row.renewalLeadDays,
  };
}
