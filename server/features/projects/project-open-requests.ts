import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { scopeOf, scopePlaceholderConditions, type Actor } from "../../access/actor.ts";
import { canListRequestQueue } from "../../access/policies/document-request.ts";
import { documentRequests, permits, projects } from "../../db/schema.ts";
import {
  documentLabel,
  isRequestOverdue,
  requestState,
  REQUEST_STATE_LABELS,
  type DocumentKind,
  type RequestStatus,
} from "../../../shared/domain/document-requests.ts";
import { OPEN_REQUESTS_MAX, type DashboardRequest } from "../../../shared/schemas/projects.ts";

// The project dashboard's 'Open Requests' (issue 27): the document requests of the project's
// permits and bonds whose link still works or that await review, read in the dashboard's one
// statement as a JSON column.

/** An open request as the column reads it (from JSON: timestamps as ISO text). */
export interface OpenRequestRow {
  id: string;
  permitId: string;
  itemName: string;
  itemKind: "permit" | "bond";
  documentKind: DocumentKind;
  title: string | null;
  partyName: string | null;
  status: RequestStatus;
  expiresAt: string;
  firstViewedAt: string | null;
  rejected: boolean;
  dueDate: string | null;
}

const requestPermit = alias(permits, "open_request_permit");
const openRequest = alias(documentRequests, "open_request");

/** Whether the actor reads the party's name (staff); a client-user's statement never selects it. */
export const readsPartyName = (actor: Actor) => canListRequestQueue(actor);

/**
 * The project's open requests (awaiting review first, then by due date) of the permits the actor
 * may see (the scope as placeholders, as the dashboard's permits), at most OPEN_REQUESTS_MAX.
 */
export function openRequestsColumn(actor: Actor) {
  const p = requestPermit;
  const r = openRequest;
  const scope = scopePlaceholderConditions(scopeOf(actor), { companyId: p.companyId, clientId: p.clientId });
  const party = readsPartyName(actor) ? sql`${r.partyName}` : sql`null`;
  return sql<OpenRequestRow[]>`(select coalesce(json_agg(row_to_json(q)), '[]'::json) from (
      select ${r.id} as "id", ${p.id} as "permitId", ${p.permitName} as "itemName",
             ${p.recordType} as "itemKind", ${r.documentKind} as "documentKind", ${r.title} as "title",
             ${party} as "partyName", ${r.status} as "status", ${r.expiresAt} as "expiresAt",
             ${r.firstViewedAt} as "firstViewedAt", (${r.rejectReason} is not null) as "rejected",
             ${r.dueDate} as "dueDate"
      from ${documentRequests} as ${sql.identifier("open_request")}
      join ${permits} as ${sql.identifier("open_request_permit")} on ${p.id} = ${r.permitId}
      where ${p.projectId} = ${projects.id} and not ${p.archived}${scope ? sql` and ${scope}` : sql``}
        and (${r.status} = 'submitted' or (${r.status} = 'open' and ${r.expiresAt} > now()))
      order by (${r.status} = 'submitted') desc, ${r.dueDate} asc nulls last, ${r.createdAt} desc, ${r.id}
      limit ${sql.raw(String(OPEN_REQUESTS_MAX))}) q)`;
}

/** The column's rows as the dashboard answers them, against the company's today. */
export function presentOpenRequests(
  rows: OpenRequestRow[],
  today: string,
  now = new Date(),
): DashboardRequest[] {
  return rows.map((r) => {
    const state = requestState(
      {
        status: r.status,
        expiresAt: r.expiresAt,
        firstViewedAt: r.firstViewedAt,
        rejectReason: r.rejected ? "rejected" : null,
      },
      now,
    );
    return {
      id: r.id,
      permit_id: r.permitId,
      item_name: r.itemName,
      item_kind: r.itemKind,
      document_label: documentLabel(r.documentKind, r.title),
      party_name: r.partyName,
      state,
      state_label: REQUEST_STATE_LABELS[state],
      due_date: r.dueDate,
      overdue: isRequestOverdue(r.status, r.dueDate, today),
    };
  });
}
