import { sql, type SQL } from "drizzle-orm";
import { scopeOf, type Actor } from "../../access/actor.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { pageClause } from "../../db/page-clause.ts";
import { zoneTodaySql } from "../../time/company-today.ts";
import {
  documentLabel,
  requestState,
  REQUEST_STATE_LABELS,
  type DocumentKind,
  type RequestQueueState,
  type RequestStatus,
} from "../../../shared/domain/document-requests.ts";
import type { RequestQueue, RequestQueueQuery } from "../../../shared/schemas/request-queue.ts";

// The company-wide Requests page and the nav's count (issue 27): staff's reads across permits, each
// one statement. The route has checked canListRequestQueue (staff); the scope is the company.

/** `text` inside a LIKE pattern, its wildcards escaped. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The company the actor's reads are about: its own, or the one a super-admin names (null: all). */
const readCompany = (actor: Actor, requested: string | null) => scopeOf(actor).companyId ?? requested;

/** Today in the request's company zone (the query joins companies as co). */
const today = zoneTodaySql(sql`co.time_zone`);

/** The State filter as SQL over document_requests dr; it agrees with requestState() and isRequestOverdue(). */
function stateCondition(state: RequestQueueState): SQL | null {
  switch (state) {
    case "awaiting_review":
      return sql`dr.status = 'submitted'`;
    case "open":
      return sql`dr.status = 'open' and dr.expires_at > now()`;
    case "overdue":
      return sql`dr.status in ('open', 'submitted') and dr.due_date < ${today}`;
    case "approved":
      return sql`dr.status = 'approved'`;
    case "revoked":
      return sql`dr.status = 'revoked'`;
    case "expired":
      return sql`dr.status = 'open' and dr.expires_at <= now()`;
    case "all":
      return null;
  }
}

function companyCondition(actor: Actor, requested: string | null): SQL {
  const company = readCompany(actor, requested);
  return company ? sql`dr.company_id = ${company}` : sql`true`;
}

function queueConditions(actor: Actor, query: RequestQueueQuery): SQL {
  const conds: SQL[] = [companyCondition(actor, query.company_id)];
  const state = stateCondition(query.state);
  if (state) conds.push(state);
  if (query.party) {
    const p = containing(query.party);
    conds.push(
      sql`(dr.party_name ilike ${p} or dr.party_organization ilike ${p} or dr.party_email ilike ${p})`,
    );
  }
  if (query.due_from) conds.push(sql`dr.due_date >= ${query.due_from}`);
  if (query.due_to) conds.push(sql`dr.due_date <= ${query.due_to}`);
  return sql.join(conds, sql` and `);
}

/** A timestamp as ISO text, the same from either driver. */
const isoText = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

interface QueueRow {
  id: string;
  permit_id: string;
  company_id: string;
  company_name: string;
  record_type: "permit" | "bond";
  permit_name: string;
  permit_number: string;
  party_name: string;
  party_organization: string | null;
  document_kind: DocumentKind;
  title: string | null;
  status: RequestStatus;
  expires_at: string;
  first_viewed_at: string | null;
  reject_reason: string | null;
  due_date: string | null;
  created_at: string;
  submitted_at: string | null;
  overdue: boolean;
  total: number;
}

/**
 * GET /api/requests in one statement: one page of the scope's document requests (awaiting review
 * first, then open ones by due date, the rest newest first), filtered by state, party and due date,
 * with the total. An empty page asks once more whether anything exists at all.
 */
export async function listRequestQueue(
  db: Db,
  actor: Actor,
  query: RequestQueueQuery,
): Promise<RequestQueue> {
  const rows = await queryRows<QueueRow>(
    db,
    sql`select dr.id, dr.permit_id, dr.company_id, co.name as company_name, p.record_type,
               p.permit_name, p.permit_number, dr.party_name, dr.party_organization, dr.document_kind,
               dr.title, dr.status, ${isoText(sql`dr.expires_at`)} as expires_at,
               ${isoText(sql`dr.first_viewed_at`)} as first_viewed_at, dr.reject_reason,
               dr.due_date::text as due_date, ${isoText(sql`dr.created_at`)} as created_at,
               ${isoText(sql`dr.submitted_at`)} as submitted_at,
               coalesce(dr.status in ('open', 'submitted') and dr.due_date < ${today}, false) as overdue,
               (count(*) over ())::int as total
        from document_requests dr
        join permits p on p.id = dr.permit_id
        join companies co on co.id = dr.company_id
        where ${queueConditions(actor, query)}
        order by case dr.status when 'submitted' then 0 when 'open' then 1 else 2 end,
                 case when dr.status in ('open', 'submitted') then dr.due_date end asc nulls last,
                 dr.created_at desc, dr.id
        ${pageClause(query.page_size, (query.page - 1) * query.page_size)}`,
  );
  let total = rows[0]?.total ?? 0;
  let any = rows.length > 0;
  if (!rows.length) {
    // Past the last page, or nothing matches: count apart, and say whether anything exists at all.
    const [counted] = await queryRows<{ n: number; any: boolean }>(
      db,
      sql`select (select count(*) from document_requests dr join companies co on co.id = dr.company_id
                  where ${queueConditions(actor, query)})::int as n,
                 exists (select 1 from document_requests dr
                         where ${companyCondition(actor, query.company_id)}) as any`,
    );
    total = counted?.n ?? 0;
    any = counted?.any ?? false;
  }
  const now = new Date();
  return {
    items: rows.map((r) => {
      const state = requestState(
        {
          status: r.status,
          expiresAt: r.expires_at,
          firstViewedAt: r.first_viewed_at,
          rejectReason: r.reject_reason,
        },
        now,
      );
      return {
        id: r.id,
        permitId: r.permit_id,
        companyId: r.company_id,
        companyName: r.company_name,
        itemKind: r.record_type,
        itemName: r.permit_name,
        itemNumber: r.permit_number,
        partyName: r.party_name,
        partyOrganization: r.party_organization,
        documentKind: r.document_kind,
        documentLabel: documentLabel(r.document_kind, r.title),
        state,
        stateLabel: REQUEST_STATE_LABELS[state],
        overdue: r.overdue,
        createdAt: r.created_at,
        dueDate: r.due_date,
        submittedAt: r.submitted_at,
      };
    }),
    total,
    page: query.page,
    page_size: query.page_size,
    any,
  };
}

/** The nav's badge: requests awaiting review in the actor's company (a super-admin: every company's). */
export async function countAwaitingReview(db: Db, actor: Actor): Promise<number> {
  const company = scopeOf(actor).companyId;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from document_requests dr
        where dr.status = 'submitted' and ${company ? sql`dr.company_id = ${company}` : sql`true`}`,
  );
  return row?.n ?? 0;
}
