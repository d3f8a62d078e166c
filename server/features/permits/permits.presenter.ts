import { and, eq, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { scopeOf, scopeParams, scopePlaceholderConditions, type Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { clients, companies, permits, projects, sureties, users } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import type { BondStatus } from "../../../shared/domain/bonds.ts";
import { todayIn } from "../../../shared/domain/dates.ts";
import type { ExpiryRule, FinalStatus } from "../../../shared/domain/lifecycle.ts";
import { recordStatus, recordUrgency } from "../../../shared/domain/record-status.ts";
import type { GuaranteeType, PermitStatus, RecordType } from "../../../shared/domain/statuses.ts";
import type { PermitDetail } from "../../../shared/schemas/permit-detail.ts";
import type { PermitGroup, PermitList, PermitListItem } from "../../../shared/schemas/permit-list.ts";
import type { PermitListQuery } from "../../../shared/schemas/permit-list-query.ts";
import { builtOnceForViewer, type PermitRow } from "./permit-access.ts";
import type { PermitListRows } from "./permit-list-page.query.ts";
import { commentCountColumn, userNameSql } from "./permit-sql.ts";
import { selectPermitView } from "./permit-view.query.ts";
import { permitCan, permitRowCan } from "../../access/policies/permit.ts";
import { permitContactsColumn, presentPermitContacts } from "../contacts/index.ts";

/** Who acknowledged the current term, and when (a Date, or a timestamp as PostgreSQL's text); null when nobody has. */
const acknowledgedOf = (name: string | null, at: Date | string | null) =>
  name && at ? { by: name, at: (typeof at === "string" ? new Date(at) : at).toISOString() } : null;

/** What a row's one status is read from (shared/domain/record-status.ts). */
export const statusFacts = (r: {
  status: string;
  expirationDate: string | null;
  closeDate: string | null;
  finalStatus: string | null;
  bondStatus: string | null;
}) => ({
  status: r.status,
  expiration_date: r.expirationDate,
  close_date: r.closeDate,
  final_status: r.finalStatus,
  bond_status: r.bondStatus as BondStatus | null,
});

/** "Today" per company time zone, computed once per zone for a page of rows. */
function todayByZone() {
  const cache = new Map<string, string>();
  return (zone: string) => {
    let today = cache.get(zone);
    if (!today) cache.set(zone, (today = todayIn(zone)));
    return today;
  };
}

/**
 * One page of the All Permits list (the rows come sorted): grouped by client then project, or with
 * Group by: None as one flat list in that order.
 */
export function presentPermitList(
  actor: Actor,
  query: PermitListQuery,
  { rows, total }: PermitListRows,
): PermitList {
  const today = todayByZone();
  const groups: PermitGroup[] = [];
  const byClient = new Map<string | null, PermitGroup>();
  const byProject = new Map<string, PermitGroup["projects"][number]>();
  const items: PermitListItem[] = [];
  for (const r of rows) {
    const item: PermitListItem = {
      id: r.id,
      permit_number: r.permitNumber,
      permit_name: r.permitName,
      agency: r.agency,
      status: r.status as PermitStatus,
      display_status: recordStatus(statusFacts(r), today(r.timeZone)),
      record_type: r.recordType as RecordType,
      archived: r.archived,
      start_date: r.startDate,
      permit_application_date: r.permitApplicationDate,
      expiration_date: r.expirationDate,
      company: { id: r.companyId, name: r.companyName },
      project: r.projectId
        ? { id: r.projectId, name: r.projectName ?? "", project_number: r.projectNumber }
        : null,
      client: r.clientId ? { id: r.clientId, name: r.clientName ?? "" } : null,
      comment_count: r.commentCount,
      responsible: r.responsibleId ? { id: r.responsibleId, name: r.responsibleName ?? "" } : null,
      renew_by_date: r.renewByDate,
      renew_by_overdue: !!r.renewByDate && !r.closeDate && r.renewByDate < today(r.timeZone),
      acknowledged: acknowledgedOf(r.acknowledgedByName, r.acknowledgedAt),
      urgency: recordUrgency(statusFacts(r), today(r.timeZone)),
      can: permitRowCan(actor, r),
      matched_document: r.matchedDocument ?? null,
      tasks: r.tasks,
    };
    if (query.group === "none") {
      items.push(item);
      continue;
    }
    let group = byClient.get(r.clientId);
    if (!group) {
      group = { client: item.client, projects: [] };
      byClient.set(r.clientId, group);
      groups.push(group);
    }
    const projectKey = `${r.clientId}/${r.projectId}`;
    let projectGroup = byProject.get(projectKey);
    if (!projectGroup) {
      projectGroup = {
        project: item.project,
        permits: [],
      };
      byProject.set(projectKey, projectGroup);
      group.projects.push(projectGroup);
    }
    projectGroup.permits.push(item);
  }
  return { group_by: query.group, groups, items, total, page: query.page, page_size: query.page_size };
}

/** The detail's responsible person, joined by primary key. */
const detailResponsible = alias(users, "detail_responsible");

/**
 * A permit with everything its detail shows, in one statement: the permit row, its company (and
 * time zone), project, client, responsible person, surety, the number of comments the actor may
 * read, and the contacts it lists (issue 27, as one JSON column).
 */
function selectPermitDetail(db: Db, actor: Actor, where: SQL | undefined) {
  return selectPermitView(db, {
    permit: permits,
    companyName: companies.name,
    timeZone: companies.timeZone,
    projectName: projects.name,
    projectNumber: projects.projectNumber,
    projectStatus: projects.status,
    clientName: clients.name,
    commentCount: commentCountColumn(actor),
    responsibleName: userNameSql(detailResponsible),
    suretyName: sureties.name,
    contacts: permitContactsColumn(permits.id),
  })
    .leftJoin(detailResponsible, eq(detailResponsible.id, permits.responsibleUserId))
    .leftJoin(sureties, eq(sureties.id, permits.suretyId))
    .where(where);
}

type DetailRow = Awaited<ReturnType<typeof selectPermitDetail>>[number];

function prepareDetail(db: Db, actor: Actor, name: string) {
  return selectPermitDetail(
    db,
    actor,
    and(
      eq(permits.id, sql.placeholder("id")),
      scopePlaceholderConditions(scopeOf(actor), {
        companyId: permits.companyId,
        clientId: permits.clientId,
      }),
    ),
  ).prepare(name);
}

/**
 * GET /api/permits/:id in one statement: the permit the actor may see, with what its detail
 * shows, or 404 (another company's permit, a client-user's permit of another client, no permit).
 * The statement is built once per shape of scope (all companies, one company, a client-user's
 * clients) and of comment visibility, and run with the actor's values: the hottest read of the
 * app skips building its query.
 */
export async function findVisiblePermitDetail(db: Db, actor: Actor, id: string) {
  const scope = scopeOf(actor);
  const statement = builtOnceForViewer(db, actor, "permit_detail", (name) => prepareDetail(db, actor, name));
  const [found] = await statement.execute({ id, ...scopeParams(scope) });
  if (!found) throw notFound("Permit");
  return found;
}

/** The permit detail of a row the actor may see (after a create or an update): one statement. */
export async function presentPermit(db: Db, actor: Actor, row: PermitRow): Promise<PermitDetail> {
  const [found] = await selectPermitDetail(db, actor, eq(permits.id, row.id));
  if (!found) throw new Error(`permit ${row.id} is gone`);
  return permitDetail(actor, found);
}

/** The response of the permit detail, from its one row; `can` from the permit policy. */
export function permitDetail(actor: Actor, found: DetailRow): PermitDetail {
  const row = found.permit;
  return {
    id: row.id,
    permit_number: row.permitNumber,
    permit_name: row.permitName,
    agency: row.agency,
    status: row.status as PermitStatus,
    archived: row.archived,
    record_type: row.recordType as RecordType,
    permit_application_date: row.permitApplicationDate,
    issue_date: row.issueDate,
    expiration_date: row.expirationDate,
    start_date: row.startDate,
    close_date: row.closeDate,
    permit_expires: row.permitExpires,
    project_id: row.projectId,
    company_id: row.companyId,
    client_id: row.clientId,
    bond_amount: row.bondAmount,
    surety_company: found.suretyName ?? row.suretyCompany,
    surety_id: row.suretyId,
    bond_status: (row.bondStatus as BondStatus | null) ?? null,
    current_amount: row.currentAmount,
    maintenance_of_id: row.maintenanceOfId,
    bond_number: row.bondNumber,
    guarantee_type: row.guaranteeType as GuaranteeType | null,
    grantor_link: row.grantorLink,
    phase: row.phase,
    aka: row.aka,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    project: row.projectId
      ? {
          id: row.projectId,
          name: found.projectName ?? "",
          project_number: found.projectNumber,
          status: found.projectStatus ?? "",
        }
      : null,
    client: row.clientId ? { id: row.clientId, name: found.clientName ?? "" } : null,
    company: { id: row.companyId, name: found.companyName },
    display_status: recordStatus(statusFacts(row), todayIn(found.timeZone)),
    comment_count: found.commentCount,
    responsible:
      row.responsibleUserId && found.responsibleName
        ? { id: row.responsibleUserId, name: found.responsibleName }
        : null,
    expiry_rule: row.expiryRule as ExpiryRule,
    expiry_days: row.expiryDays,
    renewal_lead_days: row.renewalLeadDays,
    renew_by_date: row.renewByDate,
    term_no: row.termNo,
    acknowledged: acknowledgedOf(row.acknowledgedByName, row.acknowledgedAt),
    final_status: (row.finalStatus as FinalStatus | null) ?? null,
    contacts: presentPermitContacts(actor, found.contacts),
    can: permitCan(actor, row),
  };
}
