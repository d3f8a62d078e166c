import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { linkActor, recordPermitAudit, type AuditActor } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import { companies, documentRequests, permits, requestFiles, requestSubmissions } from "../../db/schema.ts";
import { conflict } from "../../errors.ts";
import {
  documentLabel,
  type DocumentKind,
  type GoneLinkState,
  type LinkState,
  type RequestField,
} from "../../../shared/domain/document-requests.ts";
import type { LinkPage } from "../../../shared/schemas/document-requests.ts";
import { partyLabel } from "./create-request.ts";
import { hashLinkToken, isLinkTokenShape } from "./link-token.ts";
import type { RequestRow } from "./request-view.ts";

// The party's side of a request, reached by its link's token alone. Everything here is confined to
// the one request the token's hash names: the page shows that request, its company's name and logo
// and its item's name and number; files are listed from that request only.

export interface LinkContext {
  request: RequestRow;
  /** The permit's company (its trail, its logo, where the party's files are stored). */
  company: { id: string; name: string; hasLogo: boolean };
  item: { kind: "permit" | "bond"; name: string; number: string | null };
}

/** The request a token names, with what its page shows; null for an unknown (or malformed) token. */
export async function resolveLink(
  db: Db,
  token: string,
  opts: { forUpdate?: boolean } = {},
): Promise<LinkContext | null> {
  if (!isLinkTokenShape(token)) return null;
  const query = db
    .select({
      request: documentRequests,
      companyId: companies.id,
      companyName: companies.name,
      hasLogo: sql<boolean>`${companies.logoKey} is not null`,
      recordType: permits.recordType,
      itemName: permits.permitName,
      itemNumber: permits.permitNumber,
    })
    .from(documentRequests)
    .innerJoin(permits, eq(permits.id, documentRequests.permitId))
    // The permit's company as it is now (a super-admin may have moved the permit since).
    .innerJoin(companies, eq(companies.id, permits.companyId))
    .where(eq(documentRequests.tokenHash, hashLinkToken(token)));
  const [row] = opts.forUpdate ? await query.for("update", { of: documentRequests }) : await query;
  if (!row) return null;
  return {
    request: row.request,
    company: { id: row.companyId, name: row.companyName, hasLogo: !!row.hasLogo },
    item: { kind: row.recordType === "bond" ? "bond" : "permit", name: row.itemName, number: row.itemNumber },
  };
}

/** Revoked, or past its expiry and not approved: the link is gone (410). */
export function goneState(r: RequestRow, now = new Date()): GoneLinkState | null {
  if (r.status === "revoked") return "revoked";
  if (r.status !== "approved" && r.expiresAt.getTime() <= now.getTime()) return "expired";
  return null;
}

/** The permit a link's steps are audited on. */
export const permitOfLink = (link: LinkContext) => ({
  id: link.request.permitId,
  companyId: link.company.id,
});

/** The party, as the trail names it: "Jane Roe (Acme Surety) via request link". */
export const partyActor = (r: RequestRow): AuditActor => linkActor(`${partyLabel(r)} via request link`);

export const REQUEST_COMPLETE = "This request is complete; nothing more can be added.";
export const AWAITING_REVIEW = "Your document was submitted and is awaiting review.";

/** The party may add files while the request is open or awaiting review (not approved; gone ones never get here). */
export function assertAcceptsFiles(r: RequestRow) {
  if (r.status === "approved") throw conflict(REQUEST_COMPLETE);
}

/** The party's own uploads of this request that still count: not those of a rejected submission. */
export async function partyFiles(db: Db, requestId: string) {
  return db
    .select({
      id: requestFiles.id,
      filename: requestFiles.filename,
      size: requestFiles.size,
      createdAt: requestFiles.createdAt,
      submissionId: requestFiles.submissionId,
    })
    .from(requestFiles)
    .leftJoin(requestSubmissions, eq(requestSubmissions.id, requestFiles.submissionId))
    .where(
      and(
        eq(requestFiles.requestId, requestId),
        or(isNull(requestFiles.submissionId), sql`${requestSubmissions.status} <> 'rejected'`),
      ),
    )
    .orderBy(asc(requestFiles.createdAt), asc(requestFiles.id));
}

/**
 * The link's page. The first opening is recorded (first_viewed_at, and the trail as the party);
 * later ones only move last_viewed_at.
 */
export async function openLinkPage(db: Db, link: LinkContext): Promise<LinkPage> {
  const r = link.request;
  await db.transaction(async (tx) => {
    const first = await tx
      .update(documentRequests)
      .set({ firstViewedAt: new Date(), lastViewedAt: new Date() })
      .where(and(eq(documentRequests.id, r.id), isNull(documentRequests.firstViewedAt)))
      .returning({ id: documentRequests.id });
    if (first.length) {
      await recordPermitAudit(tx, partyActor(r), permitOfLink(link), [
        {
          action: "request_viewed",
          field: "document_request",
          newValue: documentLabel(r.documentKind as DocumentKind, r.title),
        },
      ]);
    } else {
      await tx
        .update(documentRequests)
        .set({ lastViewedAt: new Date() })
        .where(eq(documentRequests.id, r.id));
    }
  });
  const files = await partyFiles(db, r.id);
  return {
    state: r.status as LinkState,
    company: { name: link.company.name, hasLogo: link.company.hasLogo },
    request: {
      documentLabel: documentLabel(r.documentKind as DocumentKind, r.title),
      title: r.title,
      message: r.message,
      dueDate: r.dueDate,
      fields: r.fields as RequestField[],
      itemKind: link.item.kind,
      itemName: link.item.name,
      itemNumber: link.item.number,
      rejectReason: r.status === "open" ? r.rejectReason : null,
    },
    files: files.map((f) => ({
      id: f.id,
      filename: f.filename,
      size: f.size,
      createdAt: f.createdAt.toISOString(),
    })),
  };
}
