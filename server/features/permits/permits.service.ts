import { and, eq } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { actorCan, type Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { attachments, companies, permits, projects } from "../../db/schema.ts";
import { authorize, validation } from "../../errors.ts";
import { todayIn } from "../../../shared/domain/dates.ts";
import type { PermitStatus } from "../../../shared/domain/statuses.ts";
import { PROJECT_REQUIRED_MESSAGE, type PermitInput } from "../../../shared/schemas/permits.ts";
import { recordPermitAudit, type PermitAuditEntry } from "../audit/audit.service.ts";
import { findVisiblePermit, type PermitRow } from "./permit-access.ts";

type PermitValues = Pick<
  typeof permits.$inferInsert,
  | "companyId"
  | "projectId"
  | "clientId"
  | "permitNumber"
  | "permitName"
  | "recordType"
  | "agency"
  | "status"
  | "archived"
  | "permitApplicationDate"
  | "issueDate"
  | "expirationDate"
  | "startDate"
  | "closeDate"
  | "phase"
  | "aka"
  | "grantorLink"
  | "bondAmount"
  | "suretyCompany"
  | "bondNumber"
  | "guaranteeType"
>;

/** The columns the form writes, each audited under its column name when it changes. */
const AUDITED: Record<keyof PermitValues, PgColumn> = {
  companyId: permits.companyId,
  projectId: permits.projectId,
  clientId: permits.clientId,
  permitNumber: permits.permitNumber,
  permitName: permits.permitName,
  recordType: permits.recordType,
  agency: permits.agency,
  status: permits.status,
  archived: permits.archived,
  permitApplicationDate: permits.permitApplicationDate,
  issueDate: permits.issueDate,
  expirationDate: permits.expirationDate,
  startDate: permits.startDate,
  closeDate: permits.closeDate,
  phase: permits.phase,
  aka: permits.aka,
  grantorLink: permits.grantorLink,
  bondAmount: permits.bondAmount,
  suretyCompany: permits.suretyCompany,
  bondNumber: permits.bondNumber,
  guaranteeType: permits.guaranteeType,
};

/** "1500" and "1500.5" as the numeric(14,2) column gives them back ("1500.00", "1500.50"). */
function toMoney(amount: string | null): string | null {
  if (amount === null) return null;
  const [whole = "0", cents = ""] = amount.split(".");
  return `${BigInt(whole).toString()}.${cents.padEnd(2, "0")}`;
}

async function companyZone(tx: Db, companyId: string): Promise<string> {
  const [company] = await tx
    .select({ timeZone: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!company) throw validation({ company_id: "Company not found." });
  return company.timeZone;
}

/**
 * The project a permit goes under: one of the company's own (another company's answers like a
 * missing one), and required as soon as the company has any project (spec section 5).
 */
async function resolveProject(tx: Db, companyId: string, projectId: string | null) {
  if (!projectId) {
    const [any] = await tx
      .select({ id: projects.id })
      .from(projects)
      .where(eq(projects.companyId, companyId))
      .limit(1);
    if (any) throw validation({ project_id: PROJECT_REQUIRED_MESSAGE });
    return null;
  }
  const [project] = await tx
    .select({ id: projects.id, clientId: projects.clientId })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.companyId, companyId)));
  if (!project) throw validation({ project_id: "Project not found in this company." });
  return project;
}

async function toValues(
  tx: Db,
  companyId: string,
  input: PermitInput,
  currentStatus: string | null,
): Promise<PermitValues> {
  const zone = await companyZone(tx, companyId);
  const project = await resolveProject(tx, companyId, input.project_id);
  const isBond = input.record_type === "bond";
  // Unticking Required keeps a status the form cannot show (Pending, N/A...) rather than overwrite it.
  const status: PermitStatus = input.is_required
    ? "Required"
    : currentStatus && currentStatus !== "Required"
      ? (currentStatus as PermitStatus)
      : "In Waiting";
  return {
    companyId,
    projectId: project?.id ?? null,
    clientId: project?.clientId ?? null,
    permitNumber: input.permit_number,
    permitName: input.permit_name,
    recordType: input.record_type,
    agency: input.agency,
    status,
    archived: input.archived,
    permitApplicationDate: input.permit_application_date,
    issueDate: input.issue_date,
    expirationDate: input.expiration_date,
    startDate: input.start_date ?? todayIn(zone),
    closeDate: input.close_date,
    phase: input.phase,
    aka: input.aka,
    grantorLink: input.grantor_link,
    // A permit carries no bond details, also after switching from bond to permit.
    bondAmount: isBond ? toMoney(input.bond_amount) : null,
    suretyCompany: isBond ? input.surety_company : null,
    bondNumber: isBond ? input.bond_number : null,
    guaranteeType: isBond ? input.guarantee_type : null,
  };
}

/** Creates a permit and its "create" audit entry in one transaction. */
export async function createPermit(
  db: Db,
  actor: Actor,
  companyId: string,
  input: PermitInput,
): Promise<PermitRow> {
  return db.transaction(async (tx) => {
    const values = await toValues(tx, companyId, input, null);
    const [row] = await tx
      .insert(permits)
      .values({ ...values, createdBy: actor.userId })
      .returning();
    await recordPermitAudit(tx, actor, row!, [{ action: "create", newValue: row!.permitNumber }]);
    return row!;
  });
}

/**
 * Updates a permit from the form: one audit entry per changed column, with old and new values,
 * in the same transaction. Only a super-admin may move it to another company.
 */
export async function updatePermit(db: Db, actor: Actor, id: string, input: PermitInput): Promise<PermitRow> {
  return db.transaction(async (tx) => {
    const current = await findVisiblePermit(tx, actor, id, { forUpdate: true });
    authorize(actorCan(actor, "permits.edit"));
    const companyId =
      actor.role === "super-admin" ? (input.company_id ?? current.companyId) : current.companyId;
    const values = await toValues(tx, companyId, input, current.status);
    const changes: PermitAuditEntry[] = [];
    const changed: Partial<PermitValues> = {};
    for (const key of Object.keys(AUDITED) as (keyof PermitValues)[]) {
      const before = current[key] ?? null;
      const after = values[key] ?? null;
      if (before === after) continue;
      changes.push({ action: "update", field: AUDITED[key].name, oldValue: before, newValue: after });
      Object.assign(changed, { [key]: after });
    }
    if (!changes.length) return current;
    const [row] = await tx.update(permits).set(changed).where(eq(permits.id, id)).returning();
    await recordPermitAudit(tx, actor, row!, changes);
    return row!;
  });
}

/**
 * Deletes a permit (comments and attachments go by cascade) after writing its "delete" audit
 * entry, which outlives it. Returns the storage keys of its files, to remove after the commit.
 */
export async function deletePermit(db: Db, actor: Actor, id: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    const permit = await findVisiblePermit(tx, actor, id, { forUpdate: true });
    authorize(actorCan(actor, "permits.delete"));
    const files = await tx
      .select({ key: attachments.storageKey })
      .from(attachments)
      .where(eq(attachments.permitId, permit.id));
    await recordPermitAudit(tx, actor, permit, [{ action: "delete", oldValue: permit.permitNumber }]);
    await tx.delete(permits).where(eq(permits.id, permit.id));
    return files.map((f) => f.key);
  });
}
