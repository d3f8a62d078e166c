import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { canReadRequestDetails } from "../../access/policies/document-request.ts";
import type { Db } from "../../db/client.ts";
import { documentRequests, requestFiles, requestSubmissions } from "../../db/schema.ts";
import { companyToday } from "../../time/company-today.ts";
import {
  documentLabel,
  isRequestOverdue,
  requestState,
  REQUEST_STATE_LABELS,
  type DocumentKind,
  type RequestField,
  type RequestStatus,
  type SubmissionStatus,
} from "../../../shared/domain/document-requests.ts";
import type { ClientRequestView, RequestView } from "../../../shared/schemas/document-requests.ts";

export type RequestRow = typeof documentRequests.$inferSelect;
type SubmissionRow = typeof requestSubmissions.$inferSelect;
type FileRow = typeof requestFiles.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A request as staff see it, with its submissions (newest first) and each one's files. */
export function presentRequest(
  r: RequestRow,
  submissions: readonly SubmissionRow[],
  files: readonly FileRow[],
  today: string,
  now = new Date(),
): RequestView {
  const state = requestState(
    {
      status: r.status as RequestStatus,
      expiresAt: r.expiresAt,
      firstViewedAt: r.firstViewedAt,
      rejectReason: r.rejectReason,
    },
    now,
  );
  return {
    id: r.id,
    permitId: r.permitId,
    contactId: r.contactId,
    partyName: r.partyName,
    partyEmail: r.partyEmail,
    partyOrganization: r.partyOrganization,
    documentKind: r.documentKind as DocumentKind,
    documentLabel: documentLabel(r.documentKind as DocumentKind, r.title),
    title: r.title,
    message: r.message,
    dueDate: r.dueDate,
    fields: r.fields as RequestField[],
    expiresAt: r.expiresAt.toISOString(),
    status: r.status as RequestStatus,
    state,
    stateLabel: REQUEST_STATE_LABELS[state],
    overdue: isRequestOverdue(r.status as RequestStatus, r.dueDate, today),
    createdAt: r.createdAt.toISOString(),
    createdByName: r.createdByName,
    firstViewedAt: iso(r.firstViewedAt),
    submittedAt: iso(r.submittedAt),
    reviewedAt: iso(r.reviewedAt),
    reviewedByName: r.reviewedByName,
    rejectReason: r.rejectReason,
    submissions: submissions
      .filter((s) => s.requestId === r.id)
      .map((s) => ({
        id: s.id,
        status: s.status as SubmissionStatus,
        values: s.values,
        submittedAt: s.submittedAt.toISOString(),
        reviewedAt: iso(s.reviewedAt),
        reason: s.reason,
        files: files
          .filter((f) => f.submissionId === s.id)
          .map((f) => ({
            id: f.id,
            filename: f.filename,
            size: f.size,
            contentType: f.contentType,
            createdAt: f.createdAt.toISOString(),
          })),
      })),
  };
}

/** What a client-user sees of a request: kind, state and dates, nothing of the party, its files or values. */
export function presentForClient(view: RequestView): ClientRequestView {
  const {
    id,
    documentKind,
    documentLabel: label,
    title,
    state,
    stateLabel,
    createdAt,
    submittedAt,
    reviewedAt,
  } = view;
  return {
    id,
    documentKind,
    documentLabel: label,
    title,
    state,
    stateLabel,
    createdAt,
    submittedAt,
    reviewedAt,
  };
}

/** The submissions and files of these requests (submissions newest first; a file's submission links it). */
async function childrenOf(db: Db, ids: string[]) {
  if (!ids.length) return { submissions: [], files: [] };
  const [submissions, files] = await Promise.all([
    db
      .select()
      .from(requestSubmissions)
      .where(inArray(requestSubmissions.requestId, ids))
      .orderBy(desc(requestSubmissions.submittedAt), desc(requestSubmissions.id)),
    db
      .select()
      .from(requestFiles)
      .where(inArray(requestFiles.requestId, ids))
      .orderBy(asc(requestFiles.createdAt), asc(requestFiles.id)),
  ]);
  return { submissions, files };
}

/** A request as it is now, for the staff answer of a write. */
export async function loadRequestView(db: Db, r: RequestRow): Promise<RequestView> {
  const { submissions, files } = await childrenOf(db, [r.id]);
  return presentRequest(r, submissions, files, await companyToday(db, r.companyId));
}

/** A permit's requests, newest first: in full for staff, the summary for a client-user. */
export async function listPermitRequests(
  db: Db,
  actor: Actor,
  permit: { id: string; companyId: string; clientId: string | null },
): Promise<(RequestView | ClientRequestView)[]> {
  const rows = await db
    .select()
    .from(documentRequests)
    .where(and(eq(documentRequests.permitId, permit.id), eq(documentRequests.companyId, permit.companyId)))
    .orderBy(desc(documentRequests.createdAt), desc(documentRequests.id));
  const details = canReadRequestDetails(actor, permit);
  // A client-user's answer needs no submissions or files: they are not read at all.
  const { submissions, files } = details
    ? await childrenOf(
        db,
        rows.map((r) => r.id),
      )
    : { submissions: [], files: [] };
  const today = await companyToday(db, permit.companyId);
  return rows.map((r) => {
    const view = presentRequest(r, submissions, files, today);
    return details ? view : presentForClient(view);
  });
}
