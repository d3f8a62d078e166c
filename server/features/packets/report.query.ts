import { and, eq, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { scopeConditions, type Scope } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { clients, companies, permits, projects, sureties, users } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import { selectPermitView } from "../permits/index.ts";

// The compliance report's data (issue 30) in two statements, whoever asks (a signed-in actor, a
// status link, the monthly sweep): the header (company, project or client, within the scope; else
// 404), then every non-archived permit and bond of it, with the responsible person's name, the
// surety's name and each record's open requests and overdue tasks as correlated counts (no query
// per row). Never selected: comments, attachments, e-mails, collateral, surety limits.

/** What a report covers: one project, or one client across its projects. */
export type ReportTarget = { projectId: string } | { clientId: string };

export interface ReportHeader {
  companyId: string;
  companyName: string;
  timeZone: string;
  currency: string;
  logo: { key: string; contentType: string; size: number | null; sha256: string | null } | null;
  project: { id: string; name: string; number: string | null } | null;
  client: { id: string; name: string } | null;
}

export async function loadReportHeader(db: Db, scope: Scope, target: ReportTarget): Promise<ReportHeader> {
  const company = {
    companyId: companies.id,
    companyName: companies.name,
    timeZone: companies.timeZone,
    currency: companies.currency,
    logoKey: companies.logoKey,
    logoContentType: companies.logoContentType,
    logoSize: companies.logoSize,
    logoSha256: companies.logoSha256,
  };
  let row: (Record<keyof typeof company, unknown> & Record<string, unknown>) | undefined;
  if ("projectId" in target) {
    [row] = await db
      .select({
        ...company,
        projectId: projects.id,
        projectName: projects.name,
        projectNumber: projects.projectNumber,
        clientId: clients.id,
        clientName: clients.name,
      })
      .from(projects)
      .innerJoin(companies, eq(companies.id, projects.companyId))
      .leftJoin(clients, eq(clients.id, projects.clientId))
      .where(
        and(
          eq(projects.id, target.projectId),
          scopeConditions(scope, { companyId: projects.companyId, clientId: projects.clientId }),
        ),
      );
    if (!row) throw notFound("Project");
  } else {
    [row] = await db
      .select({ ...company, clientId: clients.id, clientName: clients.name })
      .from(clients)
      .innerJoin(companies, eq(companies.id, clients.companyId))
      .where(
        and(
          eq(clients.id, target.clientId),
          scopeConditions(scope, { companyId: clients.companyId, clientId: clients.id }),
        ),
      );
    if (!row) throw notFound("Client");
  }
  const r = row as Record<string, string | number | null>;
  return {
    companyId: r.companyId as string,
    companyName: r.companyName as string,
    timeZone: r.timeZone as string,
    currency: r.currency as string,
    logo:
      r.logoKey && r.logoContentType
        ? {
            key: r.logoKey as string,
            contentType: r.logoContentType as string,
            size: (r.logoSize as number | null) ?? null,
            sha256: (r.logoSha256 as string | null) ?? null,
          }
        : null,
    project: r.projectId
      ? {
          id: r.projectId as string,
          name: r.projectName as string,
          number: (r.projectNumber as string) ?? null,
        }
      : null,
    client: r.clientId ? { id: r.clientId as string, name: r.clientName as string } : null,
  };
}

const responsible = alias(users, "report_responsible");

/** Open requests: awaiting review, or open and not yet expired (as the dashboard counts them). */
const openRequestsSql = sql<number>`(select count(*)::int from document_requests dr
  where dr.permit_id = "permits"."id" and (dr.status = 'submitted' or (dr.status = 'open' and dr.expires_at > now())))`;
/** Overdue tasks: a condition's task still open past its due moment. */
const overdueTasksSql = sql<number>`(select count(*)::int from condition_tasks ct
  where ct.permit_id = "permits"."id" and ct.status = 'open' and ct.due_at < now())`;

export function reportRowsQuery(db: Db, where: SQL | undefined) {
  return selectPermitView(db, {
    recordType: permits.recordType,
    permitNumber: permits.permitNumber,
    permitName: permits.permitName,
    agency: permits.agency,
    status: permits.status,
    issueDate: permits.issueDate,
    expirationDate: permits.expirationDate,
    closeDate: permits.closeDate,
    finalStatus: permits.finalStatus,
    bondStatus: permits.bondStatus,
    renewByDate: permits.renewByDate,
    bondNumber: permits.bondNumber,
    guaranteeType: permits.guaranteeType,
    bondAmount: permits.bondAmount,
    currentAmount: permits.currentAmount,
    suretyName: sql<string | null>`coalesce(${sureties.name}, ${permits.suretyCompany})`,
    projectName: projects.name,
    // The name only: never the e-mail a display name falls back to elsewhere (userNameSql).
    responsibleName: sql<
      string | null
    >`nullif(btrim(${responsible.firstName} || ' ' || ${responsible.lastName}), '')`,
    openRequests: openRequestsSql,
    overdueTasks: overdueTasksSql,
  })
    .leftJoin(responsible, eq(responsible.id, permits.responsibleUserId))
    .leftJoin(sureties, eq(sureties.id, permits.suretyId))
    .where(where)
    .orderBy(permits.permitNumber, permits.id);
}
export type ReportRow = Awaited<ReturnType<typeof reportRowsQuery>>[number];

/** The permits and bonds of the header's project or client that the scope may see (not archived). */
export async function loadReportRows(db: Db, scope: Scope, header: ReportHeader): Promise<ReportRow[]> {
  return reportRowsQuery(
    db,
    and(
      eq(permits.companyId, header.companyId),
      header.project ? eq(permits.projectId, header.project.id) : eq(permits.clientId, header.client!.id),
      eq(permits.archived, false),
      scopeConditions(scope, { companyId: permits.companyId, clientId: permits.clientId }),
    ),
  );
}
