import { and, count, eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { recordPermitAudit } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import { documentRequests, requestFiles, requestSubmissions } from "../../db/schema.ts";
import { conflict, notFound } from "../../errors.ts";
import { receiveFile } from "../attachments/index.ts";
import { enqueueReading } from "../documents/index.ts";
import { assertAcceptsFiles, goneState, partyActor, permitOfLink, type LinkContext } from "./public-link.ts";
import { LinkGone } from "./link-gone.ts";

/** A party may keep at most this many files on one request (rejected rounds included). */
export const MAX_REQUEST_FILES = 20;

/**
 * One file from the party, through the attachments' upload path (same size limit, name checks,
 * storage under a server key, nothing left behind on failure). Its row is written with the request
 * locked and checked again (a review, revocation or expiry meanwhile wins); a file added while a
 * submission awaits review joins that submission.
 */
export async function receivePartyFile(app: FastifyInstance, request: FastifyRequest, link: LinkContext) {
  const { db } = app.ctx;
  return receiveFile(app, request, link.company.id, (stored) =>
    db.transaction(async (tx: Db) => {
      const [r] = await tx
        .select()
        .from(documentRequests)
        .where(eq(documentRequests.id, link.request.id))
        .for("update");
      if (!r) throw notFound("Request");
      const gone = goneState(r);
      if (gone) throw new LinkGone(gone, link.company.name);
      assertAcceptsFiles(r);
      const [{ n }] = (await tx
        .select({ n: count() })
        .from(requestFiles)
        .where(eq(requestFiles.requestId, r.id))) as [{ n: number }];
      if (Number(n) >= MAX_REQUEST_FILES)
        throw conflict(`A request takes at most ${MAX_REQUEST_FILES} files.`);
      const [pending] = await tx
        .select({ id: requestSubmissions.id })
        .from(requestSubmissions)
        .where(and(eq(requestSubmissions.requestId, r.id), eq(requestSubmissions.status, "pending")));
      const [file] = await tx
        .insert(requestFiles)
        .values({
          companyId: r.companyId,
          requestId: r.id,
          submissionId: pending?.id ?? null,
          filename: stored.filename,
          storageKey: stored.key,
          contentType: stored.contentType,
          size: stored.size,
          sha256: stored.sha256,
        })
        .returning();
      // Issue 28: read in the background, so the review shows its suggestions beside the party's values.
      await enqueueReading(tx, {
        companyId: r.companyId,
        sha256: stored.sha256,
        sourceKey: stored.key,
        filename: stored.filename,
        contentType: stored.contentType,
      });
      // The file's name is the party's to the company's staff, not to a client-user (internal).
      await recordPermitAudit(tx, partyActor(r), permitOfLink(link), [
        { action: "request_file_uploaded", field: "request_file", newValue: stored.filename, internal: true },
      ]);
      return file!;
    }),
  );
}
