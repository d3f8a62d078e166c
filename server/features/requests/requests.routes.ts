import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  canManageRequests,
  canReadRequestDetails,
  reviewRefusal,
  revokeRefusal,
} from "../../access/policies/document-request.ts";
import { canReadDocumentReadings } from "../../access/policies/document-reading.ts";
import { actorOf } from "../../auth/plugin.ts";
import { requestFiles } from "../../db/schema.ts";
import { authorize, notFound } from "../../errors.ts";
import { lockedWrite } from "../../http/locked-write.ts";
import { openCheckedDownload } from "../../storage/checked-download.ts";
import { ErrorResponseSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { DocumentReadingListSchema } from "../../../shared/schemas/document-readings.ts";
import {
  ApproveInputSchema,
  CreateRequestInputSchema,
  PermitRequestParamsSchema,
  RejectInputSchema,
  RequestFileParamsSchema,
  RequestListSchema,
  RequestOptionsSchema,
  RequestParamsSchema,
  RequestResponseSchema,
} from "../../../shared/schemas/document-requests.ts";
import { attachmentDisposition, downloadContentType } from "../attachments/index.ts";
import { listRequestReadings, presentReading } from "../documents/index.ts";
import { findVisiblePermit } from "../permits/index.ts";
import { listContactsForPicker } from "./contact-link.ts";
import { createRequest } from "./create-request.ts";
import { approveRequest, findVisibleRequest, rejectRequest, revokeRequest } from "./review.ts";
import { kickRequestSender, requestSenderIdle } from "./sender-kick.ts";
import { listPermitRequests, loadRequestView } from "./request-view.ts";

const errors = errorResponses(400, 401, 403, 404, 409);
const tags = ["document requests"];

/** Staff's side of document requests (issue 27): ask, list, review (approve, reject), revoke, read a file. */
export async function requestsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, storage, links } = app.ctx;
  // An e-mail handed to the sender must be out (or back to pending) before the app closes.
  app.addHook("onClose", () => requestSenderIdle(app));

  r.get(
    "/api/permits/:permitId/request-options",
    {
      schema: {
        tags,
        summary:
          "Whom a document may be requested of: the company's contacts with an e-mail, the permit's own first",
        params: PermitRequestParamsSchema,
        response: { 200: RequestOptionsSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const permit = await findVisiblePermit(db, actor, request.params.permitId);
      authorize(canManageRequests(actor, permit));
      return { contacts: await listContactsForPicker(db, permit.companyId, permit.id) };
    },
  );

  r.post(
    "/api/permits/:permitId/requests",
    {
      schema: {
        tags,
        summary: "Request a document of an outside party: e-mails them a link (no account needed)",
        params: PermitRequestParamsSchema,
        body: CreateRequestInputSchema,
        response: { 201: RequestResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const created = await lockedWrite(db, {
        load: (tx) => findVisiblePermit(tx, actor, request.params.permitId, { forUpdate: true }),
        allow: (permit) => canManageRequests(actor, permit),
        write: (tx, permit) => createRequest(tx, actor, links, permit, request.body),
      });
      void kickRequestSender(app);
      return reply.status(201).send({ request: await loadRequestView(db, actor, created) });
    },
  );

  r.get(
    "/api/permits/:permitId/requests",
    {
      schema: {
        tags,
        summary:
          "A permit's document requests, newest first (a client-user: what was asked and when, nothing of the party)",
        params: PermitRequestParamsSchema,
        response: { 200: RequestListSchema, ...errors },
      },
    },
    async (request) => {
      // One statement: the permit's visibility (404), the policy on it, its requests.
      return listPermitRequests(db, actorOf(request), request.params.permitId);
    },
  );

  r.post(
    "/api/requests/:id/approve",
    {
      schema: {
        tags,
        summary:
          "Approve the submission awaiting review: applies it (renewal, ledger entry, attachments) in one transaction",
        params: RequestParamsSchema,
        body: ApproveInputSchema,
        response: { 200: RequestResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const updated = await lockedWrite(db, {
        load: (tx) => findVisibleRequest(tx, actor, request.params.id, { forUpdate: true }),
        allow: (loaded) => reviewRefusal(actor, loaded),
        write: (tx, loaded) => approveRequest(tx, actor, loaded, request.body.submissionId),
      });
      return { request: await loadRequestView(db, actor, updated) };
    },
  );

  r.post(
    "/api/requests/:id/reject",
    {
      schema: {
        tags,
        summary:
          "Reject the submission awaiting review with a reason: e-mails the party the reason and the same link",
        params: RequestParamsSchema,
        body: RejectInputSchema,
        response: { 200: RequestResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const updated = await lockedWrite(db, {
        load: (tx) => findVisibleRequest(tx, actor, request.params.id, { forUpdate: true }),
        allow: (loaded) => reviewRefusal(actor, loaded),
        write: (tx, loaded) => rejectRequest(tx, actor, loaded, request.body),
      });
      void kickRequestSender(app);
      return { request: await loadRequestView(db, actor, updated) };
    },
  );

  r.post(
    "/api/requests/:id/revoke",
    {
      schema: {
        tags,
        summary: "Revoke the request's link: it stops working at once",
        params: RequestParamsSchema,
        response: { 200: RequestResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const updated = await lockedWrite(db, {
        load: (tx) => findVisibleRequest(tx, actor, request.params.id, { forUpdate: true }),
        allow: (loaded) => revokeRefusal(actor, loaded),
        write: (tx, loaded) => revokeRequest(tx, actor, loaded),
      });
      return { request: await loadRequestView(db, actor, updated) };
    },
  );

  r.get(
    "/api/requests/:id/files/:fileId",
    {
      schema: {
        tags,
        summary: "Download a file the party uploaded (staff; always as a file, never shown inline)",
        params: RequestFileParamsSchema,
        produces: ["application/octet-stream"],
        response: { 200: z.any().describe("The file's bytes"), ...errors, 409: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const loaded = await findVisibleRequest(db, actor, request.params.id);
      authorize(canReadRequestDetails(actor, loaded));
      const [file] = await db
        .select()
        .from(requestFiles)
        .where(
          and(eq(requestFiles.id, request.params.fileId), eq(requestFiles.requestId, loaded.request.id)),
        );
      if (!file) throw notFound("File");
      const opened = await openCheckedDownload(
        storage,
        request.log,
        { key: file.storageKey, size: file.size, sha256: file.sha256 },
        { name: "File", ids: { requestId: loaded.request.id, requestFileId: file.id } },
      );
      return reply
        .header("content-type", downloadContentType(file.contentType))
        .header("content-disposition", attachmentDisposition(file.filename))
        .header("content-length", opened.size)
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .header("cache-control", "private, no-store")
        .send(opened.stream);
    },
  );

  r.get(
    "/api/requests/:id/document-readings",
    {
      schema: {
        tags,
        summary:
          "The readings of the files of a request's latest submission: suggestions beside what the party typed (staff)",
        params: RequestParamsSchema,
        response: { 200: DocumentReadingListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const loaded = await findVisibleRequest(db, actor, request.params.id);
      authorize(canReadDocumentReadings(actor, loaded));
      const readings = await listRequestReadings(db, {
        id: loaded.request.id,
        companyId: loaded.request.companyId,
      });
      return { readings: readings.map(presentReading) };
    },
  );
}
