import {
  and,
  asc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import { scopeConditions, scopeOf, type Actor } from "../../access/actor.ts";
import { conditionTasks, documentRequests, permits, projects } from "../../db/schema.ts";
import { companyTodaySql } from "../../time/company-today.ts";
import { CLOSED_BOND_STATUSES } from "../../../shared/domain/bonds.ts";
import { TASKS_DUE_DAYS } from "../../../shared/domain/conditions.ts";
import { EXPIRING_SOON_DAYS } from "../../../shared/domain/constants.ts";
import type { PermitTile } from "../../../shared/domain/permit-list.ts";
import type { PermitListFilter, PermitSortField } from "../../../shared/schemas/permit-list-query.ts";
import { permitScope } from "./permit-view.query.ts";

// Which permits the All Permits list shows, and in which order: its where and order by, which the
// summary (without the tile) and the export share.

/** `%` and `_` typed by the user match themselves, not any text. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * "Today" in the permit's company time zone, for the date-relative tiles. An actor of one company
 * gets it once per statement (an uncorrelated subquery, so the expiration index still serves the
 * range); a super-admin's list spans zones, so there it is looked up per permit's company.
 */
function listToday(actor: Actor): SQL {
  const { companyId } = scopeOf(actor);
  // Qualified by hand: drizzle leaves columns unqualified in single-table selects (the count).
  return companyTodaySql(companyId ?? sql.raw(`"permits"."company_id"`));
}

const CLOSED_BONDS = sql.raw(CLOSED_BOND_STATUSES.map((s) => `'${s}'`).join(", "));

/**
 * Not closed (shared/domain/record-status.ts isClosedRecord()): no close date, and not a released
 * or cancelled bond. A closed record leaves every expiry count (issue 25).
 */
export const notClosedCondition = (): SQL =>
  sql`(${permits.closeDate} is null and (${permits.bondStatus} is null or ${permits.bondStatus} not in (${CLOSED_BONDS})))`;

/** Expiring Soon: an open record expiring today or within 30 days (the same window as urgency()). */
export const expiringSoonCondition = (today: SQL): SQL =>
  and(
    gte(permits.expirationDate, today),
    lte(permits.expirationDate, sql`${today} + ${EXPIRING_SOON_DAYS}::int`),
    notClosedCondition(),
  )!;

/** Expired: an open record whose expiration date has passed. */
export const expiredCondition = (today: SQL): SQL =>
  and(lt(permits.expirationDate, today), notClosedCondition())!;

/** A tile's rule (issue 14): the same windows the summary counts. */
function tileCondition(actor: Actor, tile: PermitTile): SQL | undefined {
  const today = listToday(actor);
  switch (tile) {
    case "expiring_soon":
      return expiringSoonCondition(today);
    case "expired":
      return expiredCondition(today);
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
    case "review":
      return awaitingReviewCondition();
    case "tasks":
      return tasksDueCondition(today);
  }
}

/**
 * 'Tasks Due' (issue 29): the permit has an open condition task whose company-local due date is
 * within TASKS_DUE_DAYS days of today, or before it (overdue ones included). A permit, counted once
 * however many such tasks it has (condition_tasks_permit_idx finds them).
 */
export const tasksDueCondition = (today: SQL): SQL =>
  sql`exists (select 1 from ${conditionTasks} where ${conditionTasks.permitId} = ${permits.id} and ${conditionTasks.status} = 'open' and ${conditionTasks.dueOn} <= ${today} + ${sql.raw(String(TASKS_DUE_DAYS))}::int)`;

/**
 * 'To Review' (issue 27): a document request of the permit was submitted by its party and
 * waits for staff to approve or reject it (document_requests_permit_idx finds them).
 */
export const awaitingReviewCondition = (): SQL =>
  sql`exists (select 1 from ${documentRequests} where ${documentRequests.permitId} = ${permits.id} and ${documentRequests.status} = 'submitted')`;

/**
 * 'Renewal Due' (issue 11): the renew-by date is within 30 days or has passed, and the permit is
 * not closed. A renewal moves the renew-by date with the new expiry, which takes it off the tile.
 */
export function renewalDueCondition(today: SQL): SQL {
  return and(
    isNotNull(permits.renewByDate),
    lte(permits.renewByDate, sql`${today} + ${EXPIRING_SOON_DAYS}::int`),
    notClosedCondition(),
  )!;
}

/** The Responsible filter: a user id, or "me" for the actor. */
const responsibleCondition = (actor: Actor, responsible: string) =>
  eq(permits.responsibleUserId, responsible === "me" ? actor.userId : responsible);

/** The words of the search box as a full-text query over documents' text (issue 28). */
const documentQuery = (q: string) => sql`websearch_to_tsquery('english', ${q})`;
const DOCUMENT_TEXT = sql`to_tsvector('english', dr.content)`;

/**
 * The current file (own or ledger document) of the permit whose reading holds the search's words,
 * newest first: the list names it (`matched_document`). A column of the list's one statement.
 */
export const matchedDocumentSql = (q: string) =>
  sql`(select a.filename from attachments a
       join document_readings dr on dr.company_id = a.company_id and dr.sha256 = a.sha256
       where a.permit_id = ${permits.id} and a.archived = false and ${DOCUMENT_TEXT} @@ ${documentQuery(q)}
       order by a.created_at desc, a.id limit 1)`;

/**
 * Permits whose current files' readings hold the words (PostgreSQL full-text search over the text
 * the reader extracted, on its GIN index): a set of ids, one hashed subquery, within the scope.
 */
function documentSearch(actor: Actor, q: string): SQL {
  const scope = scopeOf(actor);
  return sql`${permits.id} in (select a.permit_id from attachments a
    join document_readings dr on dr.company_id = a.company_id and dr.sha256 = a.sha256
    where a.archived = false ${scope.companyId ? sql`and a.company_id = ${scope.companyId}` : sql``}
      and ${DOCUMENT_TEXT} @@ ${documentQuery(q)})`;
}

/**
 * The search box: permit number, permit name, agency, or the project's name or number, or the
 * words of a current file's text (issue 28). The project and document parts are sets of ids (one
 * hashed subquery each), not a lookup per permit.
 */
function searchCondition(actor: Actor, q: string): SQL | undefined {
  const pattern = likePattern(q);
  return or(
    documentSearch(actor, q),
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
    filter.tasks === "due" ? tasksDueCondition(listToday(actor)) : undefined,
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
 * The list's order as keyset pagination reads it (the export's pages, db/keyset.ts): the chosen
 * column, if any, and the tie-breakers listOrder() ends with.
 */
export function listKeyset(query: { sort?: PermitSortField; dir: "asc" | "desc" }): {
  key?: SQL;
  dir: "asc" | "desc";
  tie: SQL[];
} {
  return {
    key: query.sort ? sql`${SORT_COLUMNS[query.sort]}` : undefined,
    dir: query.dir,
    tie: [sql`${permits.createdAt}`, sql`${permits.id}`],
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
