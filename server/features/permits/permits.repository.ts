import {
  and,
  asc,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import { alias, PgDialect, type PgColumn } from "drizzle-orm/pg-core";
import { choosesCompany, scopeConditions, scopeOf, type Actor } from "../../access/actor.ts";
import { canReadInternalComments } from "../../access/policies/comment.ts";
import { RESPONSIBLE_PERSON_ROLES, canBeResponsible } from "../../access/policies/permit.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { pageClause } from "../../db/page-clause.ts";
import { clients, companies, permits, projects, users } from "../../db/schema.ts";
import { EXPIRING_SOON_DAYS } from "../../../shared/domain/constants.ts";
import type { ListCategory } from "../../../shared/domain/permit-rules.ts";
import type { PermitTile } from "../../../shared/domain/permit-list.ts";
import type {
  PermitFilter,
  PermitFilterOptions,
  PermitFormOptions,
  PermitListFilter,
  PermitListQuery,
  PermitSortField,
  PermitSummary,
} from "../../../shared/schemas/permits.ts";
import { permitScope } from "./permit-view.query.ts";

/** Bars in the 'Permits by Agency' chart; the rest add up in `other_agencies`. */
export const TOP_AGENCIES = 10;
export const NO_AGENCY_LABEL = "No agency";

/** `%` and `_` typed by the user match themselves, not any text. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * "Today" in the permit's company time zone, for the date-relative tiles. An actor of one company
 * gets it once per statement (an uncorrelated subquery, so the expiration index still serves the
 * range); a super-admin's list spans zones, so there it is looked up per permit's company.
 */
export function companyToday(actor: Actor): SQL {
  const { companyId } = scopeOf(actor);
  return companyId
    ? sql`((now() at time zone (select c.time_zone from companies c where c.id = ${companyId}))::date)`
    : // Qualified by hand: drizzle leaves columns unqualified in single-table selects (the count).
      sql`((now() at time zone (select c.time_zone from companies c where c.id = "permits"."company_id"))::date)`;
}

/** A tile's rule (issue 14): the same windows the summary counts. */
function tileCondition(actor: Actor, tile: PermitTile): SQL | undefined {
  const today = companyToday(actor);
  switch (tile) {
    case "expiring_soon":
      return and(
        gte(permits.expirationDate, today),
        lte(permits.expirationDate, sql`${today} + ${EXPIRING_SOON_DAYS}::int`),
      );
    case "expired":
      return lt(permits.expirationDate, today);
    case "active":
      return isNotNull(permits.expirationDate);
    case "in_review":
      return and(
        isNull(permits.expirationDate),
        isNotNull(permits.permitApplicationDate),
        isNull(permits.issueDate),
      );
    case "closed":
      return isNotNull(permits.closeDate);
    case "renewal_due":
      return renewalDueCondition(today);
  }
}

/**
 * 'Renewal Due' (issue 11): the renew-by date is within 30 days or has passed, and the permit is
 * not closed. A renewal moves the renew-by date with the new expiry, which takes it off the tile.
 */
function renewalDueCondition(today: SQL): SQL {
  return and(
    isNotNull(permits.renewByDate),
    lte(permits.renewByDate, sql`${today} + ${EXPIRING_SOON_DAYS}::int`),
    isNull(permits.closeDate),
  )!;
}

/** The Responsible filter: a user id, or "me" for the actor. */
const responsibleCondition = (actor: Actor, responsible: string) =>
  eq(permits.responsibleUserId, responsible === "me" ? actor.userId : responsible);

/**
 * The search box: permit number, permit name, agency, or the project's name or number. The
 * project part is a set of ids (one hashed subquery), not a lookup per permit.
 */
function searchCondition(actor: Actor, q: string): SQL | undefined {
  const pattern = likePattern(q);
  return or(
    ilike(permits.permitNumber, pattern),
    ilike(permits.permitName, pattern),
    ilike(permits.agency, pattern),
    inArray(
      permits.projectId,
      sql`(select ${projects.id} from ${projects} where ${and(
        scopeConditions(scopeOf(actor), { companyId: projects.companyId, clientId: projects.clientId }),
        or(ilike(projects.name, pattern), ilike(projects.projectNumber, pattern)),
      )})`,
    ),
  );
}

/**
 * The list's default conditions, constants written into the statement's text rather than passed
 * as parameters: a prepared statement's generic plan (page-clause.ts) knows then that nearly every
 * permit is Required and not archived. Given `status = $2` it guesses a fraction of the rows by the
 * number of statuses, finds the first page dearer than a custom plan, and plans every request again.
 */
const REQUIRED_ONLY = sql`${permits.status} = 'Required'`;
const NOT_NA = sql`${permits.status} <> 'N/A'`;
const NOT_ARCHIVED = sql`${permits.archived} = false`;

/**
 * The list's visibility rules (spec section 4) and filters, within the actor's scope:
 * N/A never shows; only Required unless Show Non-Required (or a chosen status); archived only
 * with Show Archived; then type, search, status, project, client, agency, expiration range and
 * the clicked tile.
 */
export function listConditions(actor: Actor, filter: PermitListFilter): SQL | undefined {
  return and(
    permitScope(actor),
    filter.status ? eq(permits.status, filter.status) : filter.show_non_required ? NOT_NA : REQUIRED_ONLY,
    filter.show_archived ? undefined : NOT_ARCHIVED,
    filter.record_type ? eq(permits.recordType, filter.record_type) : undefined,
    filter.q ? searchCondition(actor, filter.q) : undefined,
    filter.project_id ? eq(permits.projectId, filter.project_id) : undefined,
    filter.client_id ? eq(permits.clientId, filter.client_id) : undefined,
    filter.agency ? sql`btrim(${permits.agency}) = ${filter.agency}` : undefined,
    filter.expires_from ? gte(permits.expirationDate, filter.expires_from) : undefined,
    filter.expires_to ? lte(permits.expirationDate, filter.expires_to) : undefined,
    filter.responsible ? responsibleCondition(actor, filter.responsible) : undefined,
    filter.tile ? tileCondition(actor, filter.tile) : undefined,
  );
}

const SORT_COLUMNS = {
  permit_number: permits.permitNumber,
  permit_name: permits.permitName,
  agency: permits.agency,
  permit_application_date: permits.permitApplicationDate,
  expiration_date: permits.expirationDate,
  renew_by_date: permits.renewByDate,
} satisfies Record<PermitSortField, unknown>;

/**
 * The per-row comment count of the list and the detail: a client-user never counts internal ones.
 * Written with qualified names: drizzle leaves columns unqualified in single-table selects, and an
 * unqualified "id" would resolve to comments.id here.
 */
export function commentCountColumn(actor: Actor) {
  return commentCountSql(canReadInternalComments(actor));
}
const commentCountSql = (readsInternalComments: boolean) =>
  sql<number>`(select count(*)::int from comments c where c.permit_id = "permits"."id"${
    readsInternalComments ? sql`` : sql` and not c.is_internal`
  })`;

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

/** "First Last", else the e-mail, as SQL over a users table (or an alias of it). */
export const userNameSql = (u: { firstName: PgColumn; lastName: PgColumn; email: PgColumn }) =>
  sql<string>`coalesce(nullif(btrim(${u.firstName} || ' ' || ${u.lastName}), ''), ${u.email})`;

/** The list's responsible person, joined by primary key in the same statement. */
const responsibleUser = alias(users, "responsible_user");

/**
 * One list row as the database sends it: every column named by an alias (`as "permitNumber"`),
 * dates and timestamps as PostgreSQL's text (both drivers leave them so under drizzle).
 */
export interface PermitListRow {
  id: string;
  permitNumber: string;
  permitName: string;
  agency: string | null;
  status: string;
  recordType: string;
  archived: boolean;
  startDate: string | null;
  permitApplicationDate: string | null;
  expirationDate: string | null;
  companyId: string;
  companyName: string;
  timeZone: string;
  projectId: string | null;
  projectName: string | null;
  projectNumber: string | null;
  clientId: string | null;
  clientName: string | null;
  commentCount: number;
  renewByDate: string | null;
  responsibleId: string | null;
  responsibleName: string | null;
  acknowledgedByName: string | null;
  /** timestamptz as text, e.g. "2026-11-24 09:30:00.123+00" */
  acknowledgedAt: string | null;
  total: number;
}

/**
 * One sorted page of the list's rows, each with its company, project, client and responsible
 * person, and the total, in one statement: the total is an uncorrelated subquery (run once, its own
 * `permits` inside), so the page still stops after its rows. Only a page past the end (no rows, page
 * 2 or later) asks for the total again. The rows come back as the driver reads them (each column
 * aliased to its key), not through drizzle's generic row mapping, which cost the list's hottest
 * path a tenth of its time (docs/PERFORMANCE.md).
 */
export async function listPermitRows(db: Db, actor: Actor, query: PermitListQuery) {
  const where = listConditions(actor, query);
  const { select, from } = listStatementHead(canReadInternalComments(actor));
  const rowsQuery = sql`${select}, (select count(*)::int from ${permits} where ${where}) as "total" ${from}
where ${where} order by ${sql.join(listOrder(query), sql`, `)}
${pageClause(query.page_size, (query.page - 1) * query.page_size)}`;
  const rows = await queryRows<PermitListRow>(db, rowsQuery);
  if (rows.length || query.page === 1) return { rows, total: rows[0]?.total ?? 0 };
  const [count] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(permits)
    .where(where);
  return { rows, total: count?.total ?? 0 };
}

/** The list's columns, each selected as its key (the total comes after them). */
function listColumns(
  readsInternalComments: boolean,
): Record<Exclude<keyof PermitListRow, "total">, SQLWrapper> {
  return {
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
    commentCount: commentCountSql(readsInternalComments),
    renewByDate: permits.renewByDate,
    responsibleId: responsibleUser.id,
    responsibleName: userNameSql(responsibleUser),
    acknowledgedByName: permits.acknowledgedByName,
    acknowledgedAt: permits.acknowledgedAt,
  };
}

const listHeads = new Map<boolean, { select: SQL; from: SQL }>();
/**
 * The list statement's fixed parts as text, rendered once per comment visibility: its select list
 * (no parameters) and its joins (the permit view's and the responsible person's). Rendering them
 * for every request was a sixth of the list's time on the server (docs/PERFORMANCE.md); only the
 * conditions, the order and the page are rendered per request.
 */
function listStatementHead(readsInternalComments: boolean) {
  let head = listHeads.get(readsInternalComments);
  if (!head) {
    const columns = Object.entries<SQLWrapper>(listColumns(readsInternalComments)).map(
      ([key, column]) => sql`${column} as ${sql.identifier(key)}`,
    );
    head = {
      select: sql.raw(renderWithoutParams(sql`select ${sql.join(columns, sql`, `)}`)),
      from: sql.raw(
        renderWithoutParams(sql`from ${permits}
inner join ${companies} on ${eq(companies.id, permits.companyId)}
left join ${projects} on ${eq(projects.id, permits.projectId)}
left join ${clients} on ${eq(clients.id, permits.clientId)}
left join ${users} as ${responsibleUser} on ${eq(responsibleUser.id, permits.responsibleUserId)}`),
      ),
    };
    listHeads.set(readsInternalComments, head);
  }
  return head;
}

const dialect = new PgDialect();
/** SQL text of a fragment that must hold no parameter (it is reused for every request). */
function renderWithoutParams(fragment: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  if (params.length) throw new Error(`a reused SQL fragment holds parameters: ${text}`);
  return text;
}

/** A page of list rows as listPermitRows() gives them. */
export type PermitListRows = Awaited<ReturnType<typeof listPermitRows>>;

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
  // Every tile is counted whichever one the list shows: the tiles are the choice.
  const where = listConditions(actor, { ...filter, tile: null });
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
        expired: sql<number>`(count(*) filter (where ${permits.expirationDate} < ${today}))::int`,
        renewalDue: sql<number>`(count(*) filter (where ${renewalDueCondition(today)}))::int`,
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
  const totals = t ?? {
    total: 0,
    inProgress: 0,
    inReview: 0,
    active: 0,
    closed: 0,
    expiringSoon: 0,
    expired: 0,
    renewalDue: 0,
  };
  const shown = agencies.reduce((sum, a) => sum + a.count, 0);
  return {
    total: totals.total,
    in_review: totals.inReview,
    active: totals.active,
    closed: totals.closed,
    expiring_soon: totals.expiringSoon,
    expired: totals.expired,
    renewal_due: totals.renewalDue,
    by_status: [
      { category: "In Progress", count: totals.inProgress },
      { category: "In Review", count: totals.inReview },
      { category: "Active", count: totals.active },
    ],
    by_agency: agencies.map((a) => ({ agency: a.agency ?? NO_AGENCY_LABEL, count: a.count })),
    other_agencies: totals.total - shown,
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

/**
 * The permit form's choices: the company's projects (with their clients), its active staff (the
 * Responsible Person choices) and, for a super-admin, the companies.
 */
export async function formOptions(
  db: Db,
  actor: Actor,
  companyId: string | null,
): Promise<PermitFormOptions> {
  const [projectRows, companyRows, staffRows] = await Promise.all([
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
    choosesCompany(actor)
      ? db
          .select({ id: companies.id, name: companies.name })
          .from(companies)
          .orderBy(asc(companies.name), asc(companies.id))
      : [],
    companyId ? responsibleCandidates(db, companyId) : [],
  ]);
  return { company_id: companyId, projects: projectRows, companies: companyRows, staff: staffRows };
}

/** Who may be named a company's permits' responsible person: its active staff, by name. */
export async function responsibleCandidates(db: Db, companyId: string) {
  const name = userNameSql(users);
  return db
    .select({ id: users.id, name })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        eq(users.banned, false),
        inArray(users.role, RESPONSIBLE_PERSON_ROLES),
      ),
    )
    .orderBy(asc(sql`lower(${name})`), asc(users.id))
    .limit(FILTER_OPTIONS_MAX);
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

/** Most choices one filter offers; beyond it the search box is the way in. */
export const FILTER_OPTIONS_MAX = 2000;

/**
 * The choices of the list's Project, Client and Agency filters, within the actor's scope: a
 * client-user gets its clients, their projects and the agencies of permits it can see.
 */
export async function filterOptions(db: Db, actor: Actor): Promise<PermitFilterOptions> {
  const scope = scopeOf(actor);
  const namesCompany = choosesCompany(actor);
  const [projectRows, clientRows, agencyRows, responsibleRows] = await Promise.all([
    db
      .select({
        id: projects.id,
        name: projects.name,
        project_number: projects.projectNumber,
        client_id: projects.clientId,
        company_name: namesCompany ? companies.name : sql<string | null>`null`,
      })
      .from(projects)
      .innerJoin(companies, eq(companies.id, projects.companyId))
      .where(scopeConditions(scope, { companyId: projects.companyId, clientId: projects.clientId }))
      .orderBy(asc(projects.name), asc(companies.name), asc(projects.id))
      .limit(FILTER_OPTIONS_MAX),
    db
      .select({
        id: clients.id,
        name: clients.name,
        company_name: namesCompany ? companies.name : sql<string | null>`null`,
      })
      .from(clients)
      .innerJoin(companies, eq(companies.id, clients.companyId))
      .where(scopeConditions(scope, { companyId: clients.companyId, clientId: clients.id }))
      .orderBy(asc(clients.name), asc(companies.name), asc(clients.id))
      .limit(FILTER_OPTIONS_MAX),
    queryRows<{ agency: string }>(
      db,
      sql`select distinct btrim(p.agency) as agency from ${permits} p
          where ${scope.companyId ? sql`p.company_id = ${scope.companyId}` : sql`true`}
            and ${scope.clientIds ? (scope.clientIds.length ? sql`p.client_id in ${scope.clientIds}` : sql`false`) : sql`true`}
            and p.status <> 'N/A' and btrim(coalesce(p.agency, '')) <> ''
          order by 1 limit ${FILTER_OPTIONS_MAX}`,
    ),
    db
      .selectDistinct({
        id: users.id,
        name: userNameSql(users),
        company_name: namesCompany ? companies.name : sql<string | null>`null`,
      })
      .from(permits)
      .innerJoin(users, eq(users.id, permits.responsibleUserId))
      .innerJoin(companies, eq(companies.id, permits.companyId))
      .where(permitScope(actor))
      .limit(FILTER_OPTIONS_MAX),
  ]);
  const byName = (a: { name: string; company_name: string | null }, b: typeof a) =>
    a.name.localeCompare(b.name) || (a.company_name ?? "").localeCompare(b.company_name ?? "");
  return {
    projects: projectRows,
    clients: clientRows,
    agencies: agencyRows.map((r) => r.agency),
    responsible: responsibleRows.sort(byName),
    can_be_responsible: canBeResponsible(actor),
  };
}
