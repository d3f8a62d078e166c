import { and, asc, desc, eq, ilike, ne, type SQL, sql } from "drizzle-orm";
import { actorCan, scopeConditions, scopeOf, type Actor } from "../../access/actor.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { clients, comments, companies, permits, projects } from "../../db/schema.ts";
import { EXPIRING_SOON_DAYS } from "../../../shared/domain/constants.ts";
import { todayIn } from "../../../shared/domain/dates.ts";
import { displayPermitStatus, urgency, type ListCategory } from "../../../shared/domain/permit-rules.ts";
import type { GuaranteeType, PermitStatus, RecordType } from "../../../shared/domain/statuses.ts";
import type {
  PermitDetail,
  PermitFilter,
  PermitFormOptions,
  PermitGroup,
  PermitList,
  PermitListItem,
  PermitListQuery,
  PermitSortField,
  PermitSummary,
} from "../../../shared/schemas/permits.ts";
import type { PermitRow } from "./permit-access.ts";
import { permitCan } from "./permits.policy.ts";

/** Bars in the 'Permits by Agency' chart; the rest add up in `other_agencies`. */
export const TOP_AGENCIES = 10;
export const NO_AGENCY_LABEL = "No agency";

/** `%` and `_` typed by the user match themselves, not any text. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The list's visibility rules (spec section 4) and filters, within the actor's scope:
 * N/A never shows; only Required unless Show Non-Required; archived only with Show Archived.
 */
export function listConditions(actor: Actor, filter: PermitFilter): SQL | undefined {
  return and(
    scopeConditions(scopeOf(actor), { companyId: permits.companyId, clientId: permits.clientId }),
    filter.show_non_required ? ne(permits.status, "N/A") : eq(permits.status, "Required"),
    filter.show_archived ? undefined : eq(permits.archived, false),
    filter.record_type ? eq(permits.recordType, filter.record_type) : undefined,
    filter.q ? ilike(permits.permitName, likePattern(filter.q)) : undefined,
  );
}

const SORT_COLUMNS = {
  permit_number: permits.permitNumber,
  permit_name: permits.permitName,
  agency: permits.agency,
  permit_application_date: permits.permitApplicationDate,
  expiration_date: permits.expirationDate,
} satisfies Record<PermitSortField, unknown>;

/** Comments the actor may see: a client-user never counts internal ones. */
const visibleComments = (actor: Actor) =>
  actorCan(actor, "comments.viewInternal") ? undefined : eq(comments.isInternal, false);

/**
 * The per-row comment count of the list. Written with qualified names: drizzle leaves columns
 * unqualified in single-table selects, and an unqualified "id" would resolve to comments.id here.
 */
function commentCountColumn(actor: Actor) {
  const internal = visibleComments(actor) ? sql` and not c.is_internal` : sql``;
  return sql<number>`(select count(*)::int from comments c where c.permit_id = "permits"."id"${internal})`;
}

/** "Today" per company time zone, computed once per zone for a page of rows. */
function todayByZone() {
  const cache = new Map<string, string>();
  return (zone: string) => {
    let today = cache.get(zone);
    if (!today) cache.set(zone, (today = todayIn(zone)));
    return today;
  };
}

/** The list's order: the chosen column, then creation order as the tie-breaker (DESIGN.md 6.9). */
export function listOrder(query: { sort?: PermitSortField; dir: "asc" | "desc" }): SQL[] {
  const order: SQL[] = [];
  if (query.sort) {
    const column = SORT_COLUMNS[query.sort];
    order.push(query.dir === "desc" ? sql`${column} desc nulls last` : sql`${column} asc nulls last`);
  }
  // Creation order by default and as the tie-breaker, so pages never overlap.
  order.push(asc(permits.createdAt), asc(permits.id));
  return order;
}

/** One server-sorted page of the All Permits list, grouped by client then project. */
export async function listPermits(db: Db, actor: Actor, query: PermitListQuery): Promise<PermitList> {
  const where = listConditions(actor, query);
  const order = listOrder(query);

  const rowsQuery = db
    .select({
      id: permits.id,
      permitNumber: permits.permitNumber,
      permitName: permits.permitName,
      agency: permits.agency,
      status: permits.status,
      recordType: permits.recordType,
      archived: permits.archived,
      startDate: permits.startDate,
      permitApplicationDate: permits.permitApplicationDate,
      expirationDate: permits.expirationDate,
      companyId: companies.id,
      companyName: companies.name,
      timeZone: companies.timeZone,
      projectId: projects.id,
      projectName: projects.name,
      projectNumber: projects.projectNumber,
      clientId: clients.id,
      clientName: clients.name,
      commentCount: commentCountColumn(actor),
    })
    .from(permits)
    .innerJoin(companies, eq(companies.id, permits.companyId))
    .leftJoin(projects, eq(projects.id, permits.projectId))
    .leftJoin(clients, eq(clients.id, permits.clientId))
    .where(where)
    .orderBy(...order)
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  const countQuery = db
    .select({ total: sql<number>`count(*)::int` })
    .from(permits)
    .where(where);
  const [rows, [count]] = await Promise.all([rowsQuery, countQuery]);

  const can = { edit: actorCan(actor, "permits.edit"), delete: actorCan(actor, "permits.delete") };
  const today = todayByZone();
  const groups: PermitGroup[] = [];
  const byClient = new Map<string | null, PermitGroup>();
  const byProject = new Map<string, PermitGroup["projects"][number]>();
  for (const r of rows) {
    const item: PermitListItem = {
      id: r.id,
      permit_number: r.permitNumber,
      permit_name: r.permitName,
      agency: r.agency,
      status: r.status as PermitStatus,
      display_status: displayPermitStatus(r.status, r.expirationDate, today(r.timeZone)),
      record_type: r.recordType as RecordType,
      archived: r.archived,
      start_date: r.startDate,
      permit_application_date: r.permitApplicationDate,
      expiration_date: r.expirationDate,
      company: { id: r.companyId, name: r.companyName },
      comment_count: r.commentCount,
      urgency: urgency(r.expirationDate, today(r.timeZone)),
      can,
    };
    let group = byClient.get(r.clientId);
    if (!group) {
      group = { client: r.clientId ? { id: r.clientId, name: r.clientName ?? "" } : null, projects: [] };
      byClient.set(r.clientId, group);
      groups.push(group);
    }
    const projectKey = `${r.clientId}/${r.projectId}`;
    let projectGroup = byProject.get(projectKey);
    if (!projectGroup) {
      projectGroup = {
        project: r.projectId
          ? { id: r.projectId, name: r.projectName ?? "", project_number: r.projectNumber }
          : null,
        permits: [],
      };
      byProject.set(projectKey, projectGroup);
      group.projects.push(projectGroup);
    }
    projectGroup.permits.push(item);
  }
  return { groups, total: count?.total ?? 0, page: query.page, page_size: query.page_size };
}

/**
 * The list dashboard's category (spec section 4) as SQL; it must agree with listCategory() in
 * shared/domain/permit-rules.ts (a test checks every combination).
 */
export const listCategorySql = (p: {
  start: SQL | typeof permits.startDate;
  applied: SQL | typeof permits.permitApplicationDate;
  issued: SQL | typeof permits.issueDate;
  expires: SQL | typeof permits.expirationDate;
}) => sql<ListCategory | null>`case
  when ${p.expires} is not null then 'Active'
  when ${p.applied} is not null and ${p.issued} is null then 'In Review'
  when ${p.start} is not null and ${p.applied} is null then 'In Progress'
end`;

/** The tiles and both charts over the list's filters, counted in the database. */
export async function summarizePermits(db: Db, actor: Actor, filter: PermitFilter): Promise<PermitSummary> {
  const where = listConditions(actor, filter);
  const category = listCategorySql({
    start: permits.startDate,
    applied: permits.permitApplicationDate,
    issued: permits.issueDate,
    expires: permits.expirationDate,
  });
  // Today in each permit's company zone; same window as urgency() "expiring" (0 to 30 days left).
  const today = sql`(now() at time zone ${companies.timeZone})::date`;
  const [totalsQuery, agenciesQuery] = [
    db
      .select({
        total: sql<number>`count(*)::int`,
        inProgress: sql<number>`(count(*) filter (where ${category} = 'In Progress'))::int`,
        inReview: sql<number>`(count(*) filter (where ${category} = 'In Review'))::int`,
        active: sql<number>`(count(*) filter (where ${category} = 'Active'))::int`,
        closed: sql<number>`(count(*) filter (where ${permits.closeDate} is not null))::int`,
        expiringSoon: sql<number>`(count(*) filter (where ${permits.expirationDate} >= ${today} and ${permits.expirationDate} <= ${today} + ${EXPIRING_SOON_DAYS}::int))::int`,
      })
      .from(permits)
      .innerJoin(companies, eq(companies.id, permits.companyId))
      .where(where),
    db
      .select({
        agency: sql<string | null>`nullif(btrim(${permits.agency}), '')`,
        count: sql<number>`count(*)::int`,
      })
      .from(permits)
      .where(where)
      .groupBy(sql`1`)
      .orderBy(desc(sql`2`), asc(sql`1`))
      .limit(TOP_AGENCIES),
  ];
  const [[t], agencies] = await Promise.all([totalsQuery, agenciesQuery]);
  const totals = t ?? { total: 0, inProgress: 0, inReview: 0, active: 0, closed: 0, expiringSoon: 0 };
  const shown = agencies.reduce((sum, a) => sum + a.count, 0);
  return {
    total: totals.total,
    in_review: totals.inReview,
    active: totals.active,
    closed: totals.closed,
    expiring_soon: totals.expiringSoon,
    by_status: [
      { category: "In Progress", count: totals.inProgress },
      { category: "In Review", count: totals.inReview },
      { category: "Active", count: totals.active },
    ],
    by_agency: agencies.map((a) => ({ agency: a.agency ?? NO_AGENCY_LABEL, count: a.count })),
    other_agencies: totals.total - shown,
  };
}

/** The permit detail of GET /api/permits/:id, for a row the actor may see. */
export async function presentPermit(db: Db, actor: Actor, row: PermitRow): Promise<PermitDetail> {
  const [[company], [project], [client], [count]] = await Promise.all([
    db
      .select({ id: companies.id, name: companies.name, timeZone: companies.timeZone })
      .from(companies)
      .where(eq(companies.id, row.companyId)),
    row.projectId
      ? db
          .select({
            id: projects.id,
            name: projects.name,
            project_number: projects.projectNumber,
            status: projects.status,
          })
          .from(projects)
          .where(eq(projects.id, row.projectId))
      : [],
    row.clientId
      ? db.select({ id: clients.id, name: clients.name }).from(clients).where(eq(clients.id, row.clientId))
      : [],
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(comments)
      .where(and(eq(comments.permitId, row.id), visibleComments(actor))),
  ]);
  if (!company) throw new Error(`permit ${row.id} has no company`);
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
    surety_company: row.suretyCompany,
    bond_number: row.bondNumber,
    guarantee_type: row.guaranteeType as GuaranteeType | null,
    grantor_link: row.grantorLink,
    phase: row.phase,
    aka: row.aka,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    project: project ?? null,
    client: client ?? null,
    company: { id: company.id, name: company.name },
    display_status: displayPermitStatus(row.status, row.expirationDate, todayIn(company.timeZone)),
    comment_count: count?.n ?? 0,
    can: permitCan(actor),
  };
}

/** Distinct non-empty agencies of a company, for the form's suggestions. */
export async function companyAgencies(db: Db, companyId: string): Promise<string[]> {
  const rows = await queryRows<{ agency: string }>(
    db,
    sql`select distinct btrim(${permits.agency}) as agency from ${permits}
        where ${permits.companyId} = ${companyId} and btrim(coalesce(${permits.agency}, '')) <> ''
        order by 1 limit 1000`,
  );
  return rows.map((r) => r.agency);
}

/** The permit form's choices: the company's projects (with their clients) and, for a super-admin, the companies. */
export async function formOptions(
  db: Db,
  actor: Actor,
  companyId: string | null,
): Promise<PermitFormOptions> {
  const [projectRows, companyRows] = await Promise.all([
    companyId
      ? db
          .select({
            id: projects.id,
            name: projects.name,
            project_number: projects.projectNumber,
            client_id: projects.clientId,
            client_name: clients.name,
          })
          .from(projects)
          .leftJoin(clients, eq(clients.id, projects.clientId))
          .where(eq(projects.companyId, companyId))
          .orderBy(asc(projects.name), asc(projects.id))
      : [],
    actorCan(actor, "allCompanies")
      ? db
          .select({ id: companies.id, name: companies.name })
          .from(companies)
          .orderBy(asc(companies.name), asc(companies.id))
      : [],
  ]);
  return { company_id: companyId, projects: projectRows, companies: companyRows };
}

/** The company of a project the actor may see, else null (another company's project reveals nothing). */
export async function projectCompanyId(db: Db, actor: Actor, projectId: string): Promise<string | null> {
  const [row] = await db
    .select({ companyId: projects.companyId })
    .from(projects)
    .where(
      and(eq(projects.id, projectId), scopeConditions(scopeOf(actor), { companyId: projects.companyId })),
    );
  return row?.companyId ?? null;
}
