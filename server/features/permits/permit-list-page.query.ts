import { eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { alias, PgDialect } from "drizzle-orm/pg-core";
import type { Actor } from "../../access/actor.ts";
import { canReadInternalComments } from "../../access/policies/comment.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { pageClause } from "../../db/page-clause.ts";
import { clients, companies, permits, projects, users } from "../../db/schema.ts";
import type { PermitListQuery } from "../../../shared/schemas/permit-list-query.ts";
import { listConditions, listOrder, matchedDocumentSql } from "./permit-list-conditions.ts";
import { commentCountSql, taskCountsSql, userNameSql, type TaskCountsRow } from "./permit-sql.ts";

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
  closeDate: string | null;
  finalStatus: string | null;
  bondStatus: string | null;
  responsibleId: string | null;
  responsibleName: string | null;
  acknowledgedByName: string | null;
  /** timestamptz as text, e.g. "2026-11-24 09:30:00.123+00" */
  acknowledgedAt: string | null;
  /** The current file whose text holds the search's words (issue 28); null without a search or a match. */
  matchedDocument: string | null;
  /** Issue 29: the permit's open tasks in brief (a JSON column). */
  tasks: TaskCountsRow;
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
  // Issue 28: with a search, the current file whose text holds its words (else null), in the same statement.
  const matched = query.q ? matchedDocumentSql(query.q) : sql`null::text`;
  const rowsQuery = sql`${select}, ${matched} as "matchedDocument", (select count(*)::int from ${permits} where ${where}) as "total" ${from}
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

/** A page of list rows as listPermitRows() gives them. */
export type PermitListRows = Awaited<ReturnType<typeof listPermitRows>>;

/** The list's columns, each selected as its key (the total comes after them). */
function listColumns(
  readsInternalComments: boolean,
): Record<Exclude<keyof PermitListRow, "total" | "matchedDocument">, SQLWrapper> {
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
    closeDate: permits.closeDate,
    finalStatus: permits.finalStatus,
    bondStatus: permits.bondStatus,
    responsibleId: responsibleUser.id,
    responsibleName: userNameSql(responsibleUser),
    acknowledgedByName: permits.acknowledgedByName,
    acknowledgedAt: permits.acknowledgedAt,
    tasks: taskCountsSql(`"companies"."time_zone"`),
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
