import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { recordPermitAudit } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import {
  documentRequests,
  permits,
  requestDeliveries,
  requestFiles,
  requestSubmissions,
} from "../../db/schema.ts";
import { conflict, notFound } from "../../errors.ts";
import { documentLabel, type DocumentKind } from "../../../shared/domain/document-requests.ts";
import { permitScope } from "../permits/index.ts";
import { applyApproval } from "./apply-approval.ts";
import { enqueueRequestDelivery } from "./request-deliveries.ts";
import { emitRequestEvent } from "./request-events.ts";
import type { RequestRow } from "./request-view.ts";

export interface LoadedRequest {
  request: RequestRow;
  /** The tenant columns the policies need: the permit's company and client (a client-user's scope). */
  companyId: string;
  clientId: string | null;
  status: string;
}

/**
 * A request whose permit the actor may see, or 404 (another company's, a hidden client's). With
 * `forUpdate` the request's row is locked for the write's transaction: two reviewers of one
 * request take turns, and the second finds it already decided.
 */
export async function findVisibleRequest(
  db: Db,
  actor: Actor,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<LoadedRequest> {
  const query = db
    .select({ request: documentRequests, companyId: permits.companyId, clientId: permits.clientId })
    .from(documentRequests)
    .innerJoin(permits, eq(permits.id, documentRequests.permitId))
    .where(and(eq(documentRequests.id, id), permitScope(actor)));
  const [row] = opts.forUpdate ? await query.for("update", { of: documentRequests }) : await query;
  if (!row) throw notFound("Request");
  return {
    request: row.request,
    companyId: row.request.companyId,
    clientId: row.clientId,
    status: row.request.status,
  };
}

/** The permit as the trail records it: its company now (the request keeps the one it was asked in). */
const permitOf = (loaded: LoadedRequest) => ({ id: loaded.request.permitId, companyId: loaded.companyId });
const labelOf = (r: RequestRow) => documentLabel(r.documentKind as DocumentKind, r.title);

/** The pending submission, which must be the one the reviewer looked at. */
async function pendingSubmission(tx: Db, r: RequestRow, submissionId: string) {
  const [s] = await tx
    .select()
    .from(requestSubmissions)
    .where(and(eq(requestSubmissions.requestId, r.id), eq(requestSubmissions.status, "pending")));
  if (!s || s.id !== submissionId)
    throw conflict("This submission is no longer awaiting review; reload the request.");
  return s;
}

const reviewed = (actor: Actor) => ({
  reviewedAt: new Date(),
  reviewedBy: actor.userId,
  reviewedByName: actor.name,
});

/** 'Approve': applies the submission (apply-approval.ts) and closes the request, in one audited transaction. */
export async function approveRequest(
  tx: Db,
  actor: Actor,
  loaded: LoadedRequest,
  submissionId: string,
): Promise<RequestRow> {
  const r = loaded.request;
  const submission = await pendingSubmission(tx, r, submissionId);
  const files = await tx
    .select()
    .from(requestFiles)
    .where(eq(requestFiles.submissionId, submission.id))
    .orderBy(requestFiles.createdAt, requestFiles.id);
  await applyApproval(tx, actor, r, submission.values, files);
  await tx
    .update(requestSubmissions)
    .set({ status: "approved", reviewedAt: new Date() })
    .where(eq(requestSubmissions.id, submission.id));
  const [updated] = await tx
    .update(documentRequests)
    .set({ status: "approved", ...reviewed(actor), rejectReason: null, updatedAt: new Date() })
    .where(and(eq(documentRequests.id, r.id), eq(documentRequests.status, "submitted")))
    .returning();
  if (!updated) throw conflict("This request was reviewed meanwhile.");
  await recordPermitAudit(tx, actor, permitOf(loaded), [
    { action: "request_approved", field: "document_request", newValue: labelOf(r) },
  ]);
  await emitRequestEvent(tx, loaded.companyId, "request.approved", updated);
  return updated;
}

/** Days a rejected request's link stays open at least, for the party to answer the rejection. */
export const REJECTED_LINK_MIN_DAYS = 7;

/** 'Reject': the submission is closed with the reason, the link opens again, and the party is told why. */
export async function rejectRequest(
  tx: Db,
  actor: Actor,
  loaded: LoadedRequest,
  input: { submissionId: string; reason: string },
): Promise<RequestRow> {
  const r = loaded.request;
  const submission = await pendingSubmission(tx, r, input.submissionId);
  await tx
    .update(requestSubmissions)
    .set({ status: "rejected", reason: input.reason, reviewedAt: new Date() })
    .where(eq(requestSubmissions.id, submission.id));
  const [updated] = await tx
    .update(documentRequests)
    .set({
      status: "open",
      ...reviewed(actor),
      rejectReason: input.reason,
      // The rejection e-mail's link must still open: at least a week left to answer it.
      expiresAt: sql`greatest(${documentRequests.expiresAt}, now() + make_interval(days => ${REJECTED_LINK_MIN_DAYS}))`,
      updatedAt: new Date(),
    })
    .where(eq(documentRequests.id, r.id))
    .returning();
  await enqueueRequestDelivery(tx, updated!, "rejection");
  await recordPermitAudit(tx, actor, permitOf(loaded), [
    { action: "request_rejected", field: "document_request", newValue: labelOf(r) },
    { action: "request_rejected", field: "reject_reason", newValue: input.reason, internal: true },
  ]);
  await emitRequestEvent(tx, loaded.companyId, "request.rejected", updated!);
  return updated!;
}

/** 'Revoke': the link stops working at once; a submission awaiting review is closed, unsent e-mails cancelled. */
export async function revokeRequest(tx: Db, actor: Actor, loaded: LoadedRequest): Promise<RequestRow> {
  const r = loaded.request;
  await tx
    .update(requestSubmissions)
    .set({ status: "rejected", reason: "Link revoked", reviewedAt: new Date() })
    .where(and(eq(requestSubmissions.requestId, r.id), eq(requestSubmissions.status, "pending")));
  await tx
    .update(requestDeliveries)
    .set({ status: "cancelled", lastError: "The request was revoked" })
    .where(and(eq(requestDeliveries.requestId, r.id), eq(requestDeliveries.status, "pending")));
  const [updated] = await tx
    .update(documentRequests)
    .set({ status: "revoked", revokedAt: new Date(), updatedAt: new Date() })
    .where(eq(documentRequests.id, r.id))
    .returning();
  await recordPermitAudit(tx, actor, permitOf(loaded), [
    { action: "request_revoked", field: "document_request", newValue: labelOf(r) },
  ]);
  return updated!;
}
