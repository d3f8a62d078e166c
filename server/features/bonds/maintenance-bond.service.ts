import { eq } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { recordPermitAudit } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { permits } from "../../db/schema.ts";
import { AppError, conflict } from "../../errors.ts";
import { companyToday } from "../../time/company-today.ts";
import { addMonths } from "../../../shared/domain/bonds.ts";
import type { MaintenanceBondInput } from "../../../shared/schemas/maintenance-bond.ts";
import { createPermitIn, type PermitRow } from "../permits/index.ts";
import { findVisibleBond } from "./bond-access.ts";

// 'Start Maintenance Bond': POST /api/bonds/:id/maintenance-bond.

export const MAINTENANCE_MESSAGES = {
  notPerformance: "Only a Performance bond starts a maintenance bond.",
  cancelled: "This performance bond is cancelled.",
  exists: "This performance bond already has its maintenance bond.",
} as const;

/**
 * Creates the Maintenance bond that follows a Performance bond, linked both ways, with its own
 * original ledger entry (through the permit service, in this transaction). The surety, project,
 * agency, responsible person and lead time default to the performance bond's; the expiration is
 * the start date plus the term.
 */
export async function startMaintenanceBond(
  db: Db,
  actor: Actor,
  performanceId: string,
  input: MaintenanceBondInput,
): Promise<string> {
  try {
    return await db.transaction(async (tx) => {
      const perf = await findVisibleBond(tx, actor, performanceId, { forUpdate: true });
      if (perf.guaranteeType !== "Performance") throw conflict(MAINTENANCE_MESSAGES.notPerformance);
      if (perf.bondStatus === "cancelled") throw conflict(MAINTENANCE_MESSAGES.cancelled);
      const [existing] = await tx
        .select({ id: permits.id })
        .from(permits)
        .where(eq(permits.maintenanceOfId, perf.id));
      if (existing) throw conflict(MAINTENANCE_MESSAGES.exists);
      const start = input.start_date ?? (await companyToday(tx, perf.companyId));
      const base = {
        permit_number: input.permit_number ?? input.bond_number ?? `${perf.permitNumber} M`,
        permit_name: input.permit_name ?? `${perf.permitName} (Maintenance)`,
        record_type: "bond" as const,
        agency: input.agency ?? perf.agency ?? "",
        is_required: true,
        archived: false,
        project_id: perf.projectId,
        company_id: perf.companyId,
        permit_application_date: null,
        issue_date: start,
        expiration_date: addMonths(start, input.term_months),
        start_date: start,
        close_date: null,
        final_status: null,
        phase: perf.phase,
        aka: null,
        grantor_link: null,
        bond_amount: input.amount,
        surety_id: input.surety_id ?? perf.suretyId,
        surety_company: input.surety_id ? null : perf.suretyCompany,
        bond_number: input.bond_number,
        guarantee_type: "Maintenance" as const,
        responsible_user_id: perf.responsibleUserId,
        expiry_rule: "fixed" as const,
        expiry_days: null,
        renewal_lead_days: perf.renewalLeadDays,
      };
      let created: PermitRow;
      try {
        created = await createPermitIn(tx, actor, perf.companyId, base, { maintenanceOfId: perf.id });
      } catch (err) {
        // The performance bond's responsible person may since have left: the new bond goes without.
        if (!(err instanceof AppError && err.fields?.responsible_user_id)) throw err;
        created = await createPermitIn(
          tx,
          actor,
          perf.companyId,
          { ...base, responsible_user_id: null },
          { maintenanceOfId: perf.id },
        );
      }
      await recordPermitAudit(tx, actor, perf, [
        { action: "maintenance_bond", field: "maintenance_bond", newValue: created.permitNumber },
      ]);
      return created.id;
    });
  } catch (err) {
    if (uniqueViolation(err) === "permits_maintenance_of_uq") throw conflict(MAINTENANCE_MESSAGES.exists);
    throw err;
  }
}
