import { asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { canListRequestQueue } from "../../access/policies/document-request.ts";
import type { Db } from "../../db/client.ts";
import { companies, permits } from "../../db/schema.ts";
import { zoneTodaySql } from "../../time/company-today.ts";
import type { ListCategory } from "../../../shared/domain/permit-rules.ts";
import type { PermitFilter } from "../../../shared/schemas/permit-list-query.ts";
import type { PermitSummary } from "../../../shared/schemas/permit-summary.ts";
import {
  expiredCondition,
  awaitingReviewCondition,
  expiringSoonCondition,
  listConditions,
  renewalDueCondition,
  tasksDueCondition,
} from "./permit-list-conditions.ts";
import { presentScopeContents, scopeContentsSql, type ScopeContentsRow } from "./scope-contents.query.ts";

/** Bars in the 'Permits by Agency' chart; the rest add up in `other_agencies`. */
export const TOP_AGENCIES = 10;
export const NO_AGENCY_LABEL = "No agency";

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
  const today = zoneTodaySql(companies.timeZone);
  const [totalsQuery, agenciesQuery] = [
    db
      .select({
        total: sql<number>`count(*)::int`,
        inProgress: sql<number>`(count(*) filter (where ${category} = 'In Progress'))::int`,
        inReview: sql<number>`(count(*) filter (where ${category} = 'In Review'))::int`,
        active: sql<number>`(count(*) filter (where ${category} = 'Active'))::int`,
        closed: sql<number>`(count(*) filter (where ${permits.closeDate} is not null))::int`,
        // A closed record (a close date, a released or cancelled bond) leaves both (issue 25).
        expiringSoon: sql<number>`(count(*) filter (where ${expiringSoonCondition(today)}))::int`,
        expired: sql<number>`(count(*) filter (where ${expiredCondition(today)}))::int`,
        renewalDue: sql<number>`(count(*) filter (where ${renewalDueCondition(today)}))::int`,
        // Issue 27: for the roles that review document requests; nobody else is asked.
        review: canListRequestQueue(actor)
          ? sql<number>`(count(*) filter (where ${awaitingReviewCondition()}))::int`
          : sql<number>`0`,
        // Issue 29: permits (not tasks) with an open task due within 7 days or overdue.
        tasksDue: sql<number>`(count(*) filter (where ${tasksDueCondition(today)}))::int`,
        // What exists whatever the filters (issue 25): uncorrelated, run once with the counts.
        inScope: sql<ScopeContentsRow>`${scopeContentsSql(actor)}`,
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
    review: 0,
    tasksDue: 0,
    inScope: { permits: false, bonds: false, company: false, client: false, project: false },
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
    review: totals.review,
    tasks: totals.tasksDue,
    by_status: [
      { category: "In Progress", count: totals.inProgress },
      { category: "In Review", count: totals.inReview },
      { category: "Active", count: totals.active },
    ],
    by_agency: agencies.map((a) => ({ agency: a.agency ?? NO_AGENCY_LABEL, count: a.count })),
    other_agencies: totals.total - shown,
    in_scope: presentScopeContents(actor, totals.inScope),
  };
}
