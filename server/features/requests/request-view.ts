import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import {
  canManageRequests,
  canReadRequestDetails,
  canViewRequests,
  requestCan,
} from "../../access/policies/document-request.ts";
import type { Db } from "../../db/client.ts";
import {
  companies,
  type documentRequests,
  permits,
  requestFiles,
  requestSubmissions,
} from "../../db/schema.ts";
import { authorize, notFound } from "../../errors.ts";
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
import { permitScope } from "../permits/index.ts";

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
  can: RequestView["can"],
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
    can,
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
export async function loadRequestView(db: Db, actor: Actor, r: RequestRow): Promise<RequestView> {
  const [{ submissions, files }, [permit]] = await Promise.all([
    childrenOf(db, [r.id]),
    db
      .select({ companyId: permits.companyId, clientId: permits.clientId })
      .from(permits)
      .where(eq(permits.id, r.permitId)),
  ]);
  const can = requestCan(actor, {
    companyId: permit!.companyId,
    clientId: permit!.clientId,
    status: r.status,
  });
  return presentRequest(r, submissions, files, await companyToday(db, r.companyId), can);
}

/** A json column as the drivers hand it over: parsed by one, text from the other. */
const parsed = <T>(value: unknown): T => (typeof value === "string" ? JSON.parse(value) : value) as T;
const camel = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]),
  );
const TIMES = [
  "expiresAt",
  "firstViewedAt",
  "lastViewedAt",
  "submittedAt",
  "reviewedAt",
  "revokedAt",
  "createdAt",
  "updatedAt",
];
/** A row read as JSON, as drizzle would have read it (camelCase keys, timestamps as Dates). */
function rowOf<T>(json: Record<string, unknown>): T {
  const row = camel(json);
  for (const key of TIMES) if (typeof row[key] === "string") row[key] = new Date(row[key] as string);
  return row as T;
}

type JsonSubmission = Record<string, unknown> & { files: Record<string, unknown>[] };
type JsonRequest = Record<string, unknown> & { submissions: JsonSubmission[] };

/**
 * A permit's requests, newest first, in one statement with the permit's visibility (404 outside
 * the actor's scope) and the company's today: in full for staff, the summary for a client-user.
 * The token's hash and sealed copy, and the files' storage keys, never leave the database.
 */
export async function listPermitRequests(
  db: Db,
  actor: Actor,
  permitId: string,
): Promise<{ items: (RequestView | ClientRequestView)[]; can: { request: boolean } }> {
  const [row] = await db
    .select({
      id: permits.id,
      companyId: permits.companyId,
      clientId: permits.clientId,
      today: sql<string>`((now() at time zone ${companies.timeZone})::date)::text`,
      requests: sql<unknown>`coalesce((
        select json_agg(to_jsonb(r) - 'token_hash' - 'token_sealed' || jsonb_build_object('submissions', coalesce((
            select jsonb_agg(to_jsonb(s) || jsonb_build_object('files', coalesce((
                select jsonb_agg(to_jsonb(f) - 'storage_key' order by f.created_at, f.id)
                from request_files f where f.submission_id = s.id), '[]'::jsonb))
              order by s.submitted_at desc, s.id desc)
            from request_submissions s where s.request_id = r.id), '[]'::jsonb))
          order by r.created_at desc, r.id desc)
        from document_requests r where r.permit_id = "permits"."id"), '[]'::json)`,
    })
    .from(permits)
    .innerJoin(companies, eq(companies.id, permits.companyId))
    .where(and(eq(permits.id, permitId), permitScope(actor)));
  if (!row) throw notFound("Permit");
  authorize(canViewRequests(actor, row));
  const details = canReadRequestDetails(actor, row);
  const items = parsed<JsonRequest[]>(row.requests).map((json) => {
    const request = rowOf<RequestRow>(json);
    const submissions = json.submissions.map((s) => rowOf<SubmissionRow>(s));
    const files = json.submissions.flatMap((s) => s.files.map((f) => rowOf<FileRow>(f)));
    const can = requestCan(actor, {
      companyId: row.companyId,
      clientId: row.clientId,
      status: request.status,
    });
    const view = presentRequest(request, submissions, files, row.today, can);
    return details ? view : presentForClient(view);
  });
  return { items, can: { request: canManageRequests(actor, row) } };
}
