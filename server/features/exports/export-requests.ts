import { sql } from "drizzle-orm";
import { companies, permits } from "../../db/schema.ts";
import {
  documentLabel,
  requestState,
  REQUEST_STATE_LABELS,
  type DocumentKind,
  type RequestStatus,
} from "../../../shared/domain/document-requests.ts";

// The permit export's request columns (issue 27): 'Open Requests' (the documents still asked for
// or awaiting review, with their state) and 'Last Request' (document, state, the day it was sent).
// Never the party's e-mail or the link; the import ignores both columns.

/** A permit's request as the export's column reads it (JSON). */
export interface ExportRequest {
  kind: DocumentKind;
  title: string | null;
  status: RequestStatus;
  expiresAt: string;
  firstViewedAt: string | null;
  rejected: boolean;
  /** The day it was sent, in the company's zone. */
  sentOn: string;
}

/** The permit's requests, newest first, as one JSON column of the export's statement. */
export const permitRequestsColumn = () =>
  sql<ExportRequest[] | null>`(select json_agg(json_build_object(
      'kind', dr.document_kind, 'title', dr.title, 'status', dr.status, 'expiresAt', dr.expires_at,
      'firstViewedAt', dr.first_viewed_at, 'rejected', dr.reject_reason is not null,
      'sentOn', (dr.created_at at time zone ${companies.timeZone})::date
    ) order by dr.created_at desc, dr.id desc)
    from document_requests dr where dr.permit_id = ${permits.id})`;

const stateOf = (r: ExportRequest, now: Date) =>
  requestState(
    {
      status: r.status,
      expiresAt: r.expiresAt,
      firstViewedAt: r.firstViewedAt,
      rejectReason: r.rejected ? "rejected" : null,
    },
    now,
  );
const describe = (r: ExportRequest, now: Date) =>
  `${documentLabel(r.kind, r.title)} (${REQUEST_STATE_LABELS[stateOf(r, now)]})`;

/** 'Open Requests': "Inspection Report (Submitted); Renewed Permit (Viewed)", oldest first. */
export function openRequestsCell(requests: ExportRequest[] | null, now = new Date()): string | null {
  const open = (requests ?? []).filter((r) => {
    const state = stateOf(r, now);
    return state === "sent" || state === "viewed" || state === "rejected" || state === "submitted";
  });
  return open.length
    ? open
        .reverse()
        .map((r) => describe(r, now))
        .join("; ")
    : null;
}

/** 'Last Request': "Renewed Permit (Approved), sent 2026-11-27". */
export function lastRequestCell(requests: ExportRequest[] | null, now = new Date()): string | null {
  const last = requests?.[0];
  return last ? `${describe(last, now)}, sent ${last.sentOn}` : null;
}
