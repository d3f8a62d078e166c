import { and, eq, inArray, sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { permits, projects, users } from "../../db/schema.ts";
import { RESPONSIBLE_ROLES } from "../../access/policies/lifecycle.ts";
import type { ImportResult } from "../../../shared/schemas/imports.ts";
import { CSV_PREVIEW_ROWS } from "../../../shared/domain/constants.ts";
import { recordEvent, recordPermitAuditMany } from "../../audit/audit-writer.ts";
import { randomUUID } from "node:crypto";
import { companyToday } from "../../time/company-today.ts";
import { appendLedgerEntries, type NewLedgerEntry } from "../bond-ledger/index.ts";
import { findOrCreateClientsByName } from "../clients/index.ts";
import { emitWebhookEvents } from "../webhooks/index.ts";
import { decodeCsv, parseCsv, type CsvLimits, DEFAULT_CSV_LIMITS } from "./csv.ts";
import { conditionsCsv, importConditions } from "./import-conditions.ts";
import { resolveSureties } from "./import-sureties.ts";
import { linkImportedContacts, matchContacts } from "./import-contacts.ts";
import { validateRows, type ImportRow } from "./rows.ts";

const CHUNK = 500;
const lower = (s: string) => s.trim().toLowerCase();

/** Thrown inside the transaction to roll a dry run back after it has computed everything. */
class DryRunRollback extends Error {
  constructor(readonly result: ImportResult) {
    super("dry run");
  }
}

/** A checked row with its responsible person and its contacts found in the company. */
type MatchedRow = ImportRow & { responsibleUserId: string | null; contactIds: string[] };

interface ProjectRef {
  id: string;
  name: string;
  clientId: string | null;
}

/**
 * Imports a CSV of permits into one company, in one transaction: rows are validated, projects are
 * matched by project number (or name) and created when missing with their client matched by name or
 * created, a permit number already in the same project (or earlier in the file) is skipped. A dry
 * run does all of it and rolls back, so its answer is exactly what the import would do.
 */
export async function importPermits(
  db: Db,
  actor: Actor,
  company: { id: string; name: string },
  file: { name: string; bytes: Uint8Array },
  opts: { dryRun: boolean; limits?: CsvLimits; conditionsFile?: { name: string; bytes: Uint8Array } | null },
): Promise<ImportResult> {
  const limits = opts.limits ?? DEFAULT_CSV_LIMITS;
  const table = parseCsv(decodeCsv(file.bytes, limits), limits);
  const conditionsTable = opts.conditionsFile ? conditionsCsv(opts.conditionsFile, limits) : null;
  const checked = validateRows(table);
  const staffed = await matchResponsible(db, company.id, checked.valid, checked.rejected);
  const { valid, rejected } = await matchContacts(db, company.id, staffed.valid, staffed.rejected);
  const result: ImportResult = {
    dry_run: opts.dryRun,
    company,
    file_name: file.name,
    total_rows: table.rows.length,
    preview: {
      columns: table.header,
      rows: table.rows.slice(0, CSV_PREVIEW_ROWS).map((r) => table.header.map((_, i) => r.fields[i] ?? "")),
    },
    inserted: [],
    skipped: [],
    rejected,
    projects_created: [],
    clients_created: [],
    conditions: null,
  };
  try {
    await db.transaction(async (tx) => {
      const projectOf = await resolveProjects(tx, actor, company.id, valid, result);
      const existing = await existingPermitNumbers(tx, company.id, [
        ...new Set([...projectOf.values()].map((p) => p.id)),
      ]);
      const toInsert: { row: MatchedRow; project: ProjectRef }[] = [];
      const madeNow: { id: string; permitNumber: string }[] = [];
      for (const row of valid) {
        const project = projectOf.get(row)!;
        const key = `${project.id}/${lower(row.permitNumber)}`;
        if (existing.has(key)) {
          result.skipped.push({
            row: row.row,
            permit_number: row.permitNumber,
            project: project.name,
            reason:
              existing.get(key) === "file"
                ? "Duplicate of an earlier row in this file"
                : "Already in this project",
          });
          continue;
        }
        existing.set(key, "file");
        toInsert.push({ row, project });
      }
      if (toInsert.length) {
        const suretyOf = await resolveSureties(tx, actor, company.id, toInsert);
        const created = await insertPermits(tx, actor, company.id, toInsert, suretyOf);
        madeNow.push(...created);
        await recordPermitAuditMany(
          tx,
          actor,
          created.map((permit) => ({
            permit,
            entries: [{ action: "import", newValue: permit.permitNumber }],
          })),
        );
        // Issue 30: one event per permit, in one statement, before the bonds' ledger entries.
        await emitWebhookEvents(
          tx,
          company.id,
          "permit.created",
          created.map((p) => ({ permitId: p.id })),
        );
        await writeImportedLedgers(tx, actor, company.id, toInsert, created);
        await linkImportedContacts(tx, company.id, toInsert, created);
        for (const { row, project } of toInsert) {
          result.inserted.push({ row: row.row, permit_number: row.permitNumber, project: project.name });
        }
      }
      // Issue 29: the conditions file, on the permits just made or the company's.
      if (conditionsTable)
        result.conditions = {
          file_name: opts.conditionsFile!.name,
          ...(await importConditions(tx, actor, company.id, conditionsTable, madeNow)),
        };
      await recordEvent(tx, actor, {
        action: "import",
        entityType: "permits",
        companyId: company.id,
        details: {
          file: file.name,
          inserted: result.inserted.length,
          skipped: result.skipped.length,
          rejected: result.rejected.length,
          projectsCreated: result.projects_created,
          clientsCreated: result.clients_created,
          ...(result.conditions
            ? {
                conditionsAdded: result.conditions.added.length,
                conditionsRejected: result.conditions.rejected.length,
              }
            : {}),
        },
      });
      if (opts.dryRun) throw new DryRunRollback(result);
    });
  } catch (err) {
    if (err instanceof DryRunRollback) return err.result;
    throw err;
  }
  return result;
}

/**
 * Every row's project: matched by number, else by number-or-name, else created. New projects (and
 * their clients, matched by name or created) are written in one insert each, not row by row.
 */
async function resolveProjects(
  tx: Db,
  actor: Actor,
  companyId: string,
  rows: ImportRow[],
  result: ImportResult,
): Promise<Map<ImportRow, ProjectRef>> {
  const all = await tx
    .select({
      id: projects.id,
      name: projects.name,
      number: projects.projectNumber,
      clientId: projects.clientId,
    })
    .from(projects)
    .where(eq(projects.companyId, companyId));
  const byNumber = new Map<string, ProjectRef>();
  const byName = new Map<string, ProjectRef>();
  for (const p of all) {
    if (p.number) byNumber.set(lower(p.number), p);
    if (!byName.has(lower(p.name))) byName.set(lower(p.name), p);
  }
  const find = (row: ImportRow) =>
    row.projectNumber
      ? byNumber.get(lower(row.projectNumber))
      : (byNumber.get(lower(row.project)) ?? byName.get(lower(row.projectName ?? row.project)));
  // A project the file names for the first time, keyed the way later rows will look it up.
  const newKey = (row: ImportRow) =>
    row.projectNumber ? `#${lower(row.projectNumber)}` : `@${lower(row.projectName ?? row.project)}`;

  const wanted = new Map<string, ImportRow>();
  for (const row of rows) if (!find(row) && !wanted.has(newKey(row))) wanted.set(newKey(row), row);
  if (wanted.size) {
    const clientNames = [...new Set([...wanted.values()].flatMap((r) => (r.client ? [r.client] : [])))];
    const { clients: clientByName, created } = await findOrCreateClientsByName(
      tx,
      actor,
      companyId,
      clientNames,
    );
    result.clients_created.push(...created);
    const specs = [...wanted.values()];
    for (let i = 0; i < specs.length; i += CHUNK) {
      const chunk = specs.slice(i, i + CHUNK);
      const inserted = await tx
        .insert(projects)
        .values(
          chunk.map((row) => ({
            companyId,
            name: row.projectName ?? row.project,
            projectNumber: row.projectNumber,
            clientId: row.client ? (clientByName.get(lower(row.client))?.id ?? null) : null,
          })),
        )
        .returning({
          id: projects.id,
          name: projects.name,
          number: projects.projectNumber,
          clientId: projects.clientId,
        });
      inserted.forEach((project) => {
        if (project.number) byNumber.set(lower(project.number), project);
        if (!byName.has(lower(project.name))) byName.set(lower(project.name), project);
        result.projects_created.push(project.number ? `${project.number} ${project.name}` : project.name);
      });
    }
  }
  const out = new Map<ImportRow, ProjectRef>();
  for (const row of rows) out.set(row, find(row) ?? byName.get(lower(row.projectName ?? row.project))!);
  return out;
}

/**
 * Each row's responsible_email as a staff user of the company (one query for the whole file); a row
 * naming anyone else is rejected with its row number, like any other bad value.
 */
async function matchResponsible(
  db: Db,
  companyId: string,
  valid: ImportRow[],
  rejected: ImportResult["rejected"],
): Promise<{
  valid: (ImportRow & { responsibleUserId: string | null })[];
  rejected: ImportResult["rejected"];
}> {
  const emails = [...new Set(valid.map((r) => r.responsibleEmail).filter((e): e is string => !!e))];
  const staff = new Map<string, string>();
  for (let i = 0; i < emails.length; i += CHUNK) {
    const rows = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(
        and(
          eq(users.companyId, companyId),
          eq(users.banned, false),
          inArray(users.role, RESPONSIBLE_ROLES),
          inArray(sql`lower(${users.email})`, emails.slice(i, i + CHUNK)),
        ),
      );
    for (const r of rows) staff.set(r.email.toLowerCase(), r.id);
  }
  const kept: (ImportRow & { responsibleUserId: string | null })[] = [];
  const refused = [...rejected];
  for (const row of valid) {
    const id = row.responsibleEmail ? staff.get(row.responsibleEmail) : null;
    if (id === undefined) {
      refused.push({
        row: row.row,
        reason: `Row ${row.row}: responsible_email '${row.responsibleEmail}' is not a staff user of this company`,
      });
      continue;
    }
    kept.push({ ...row, responsibleUserId: id });
  }
  refused.sort((a, b) => a.row - b.row);
  return { valid: kept, rejected: refused };
}

/**
 * The imported bonds' ledgers (issue 12): the original amount, then the entries that bring each to
 * the file's current amount and status, effective on the bond's issue date (the original) and on
 * the day of the import (the rest). One insert for the file, through the ledger's writer.
 */
async function writeImportedLedgers(
  tx: Db,
  actor: Actor,
  companyId: string,
  rows: { row: MatchedRow }[],
  created: { id: string; companyId: string }[],
) {
  const today = await companyToday(tx, companyId);
  const entries: NewLedgerEntry[] = [];
  rows.forEach(({ row }, i) => {
    for (const e of row.ledger) {
      entries.push({
        permit: created[i]!,
        ...e,
        effectiveDate: e.kind === "original" ? (row.issueDate ?? row.startDate ?? today) : today,
        reason: e.kind === "original" ? null : "Imported",
      });
    }
  });
  await appendLedgerEntries(tx, actor, entries);
}

/**
 * Inserts the rows in one statement, the values travelling as one JSON parameter: for thousands of
 * rows, building bind parameters one by one costs more than the insert.
 */
async function insertPermits(
  tx: Db,
  actor: Actor,
  companyId: string,
  rows: { row: MatchedRow; project: ProjectRef }[],
  suretyOf: Map<MatchedRow, { id: string; name: string }>,
): Promise<{ id: string; companyId: string; permitNumber: string }[]> {
  // Ids made here, so the answer lines up with the rows whatever order the insert returns.
  const values = rows.map(({ row, project }) => ({
    id: randomUUID(),
    project_id: project.id,
    client_id: project.clientId,
    permit_number: row.permitNumber,
    permit_name: row.permitName,
    agency: row.agency,
    status: row.status,
    record_type: row.recordType,
    start_date: row.startDate,
    permit_application_date: row.applicationDate,
    issue_date: row.issueDate,
    expiration_date: row.expirationDate,
    close_date: row.closeDate,
    bond_amount: row.bondAmount,
    surety_company: row.recordType === "bond" ? (suretyOf.get(row)?.name ?? null) : row.suretyCompany,
    surety_id: suretyOf.get(row)?.id ?? null,
    // The ledger's writer sets both from the entries; a bond without an amount stays Active.
    bond_status: row.recordType === "bond" ? "active" : null,
    current_amount: row.recordType === "bond" ? row.bondAmount : null,
    bond_number: row.bondNumber,
    guarantee_type: row.guaranteeType,
    phase: row.phase,
    aka: row.aka,
    grantor_link: row.grantorLink,
    responsible_user_id: row.responsibleUserId,
    expiry_rule: row.expiryRule,
    expiry_days: row.expiryDays,
    renewal_lead_days: row.renewalLeadDays,
  }));
  await queryRows<{ id: string }>(
    tx,
    sql`insert into permits (id, company_id, created_by, project_id, client_id, permit_number, permit_name, agency, status,
          record_type, start_date, permit_application_date, issue_date, expiration_date, close_date, bond_amount,
          surety_company, surety_id, bond_status, current_amount, bond_number, guarantee_type, phase, aka, grantor_link,
          responsible_user_id, expiry_rule, expiry_days, renewal_lead_days)
        select v.id, ${companyId}, ${actor.userId}, v.project_id, v.client_id, v.permit_number, v.permit_name, v.agency, v.status,
          v.record_type, v.start_date, v.permit_application_date, v.issue_date, v.expiration_date, v.close_date, v.bond_amount,
          v.surety_company, v.surety_id, v.bond_status, v.current_amount, v.bond_number, v.guarantee_type, v.phase, v.aka, v.grantor_link,
          v.responsible_user_id, v.expiry_rule, v.expiry_days, v.renewal_lead_days
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(
          id uuid, project_id uuid, client_id uuid, permit_number text, permit_name text, agency text, status text,
          record_type text, start_date date, permit_application_date date, issue_date date, expiration_date date,
          close_date date, bond_amount numeric, surety_company text, surety_id uuid, bond_status text,
          current_amount numeric, bond_number text, guarantee_type text,
          phase text, aka text, grantor_link text,
          responsible_user_id uuid, expiry_rule text, expiry_days int, renewal_lead_days int)
        returning id`,
  );
  return values.map((v) => ({ id: v.id, companyId, permitNumber: v.permit_number }));
}

/** Permit numbers already in these projects, as "projectId/lower(number)". */
async function existingPermitNumbers(
  tx: Db,
  companyId: string,
  projectIds: string[],
): Promise<Map<string, "db" | "file">> {
  const found = new Map<string, "db" | "file">();
  for (let i = 0; i < projectIds.length; i += CHUNK) {
    const rows = await tx
      .select({ projectId: permits.projectId, number: permits.permitNumber })
      .from(permits)
      .where(
        and(eq(permits.companyId, companyId), inArray(permits.projectId, projectIds.slice(i, i + CHUNK))),
      );
    for (const r of rows) found.set(`${r.projectId}/${lower(r.number)}`, "db");
  }
  return found;
}
