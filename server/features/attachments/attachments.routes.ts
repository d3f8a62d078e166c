import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { canUploadAttachment, canViewAttachments } from "../../access/policies/attachment.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { openCheckedDownload } from "../../storage/checked-download.ts";
import {
  AttachmentListQuerySchema,
  AttachmentListSchema,
  AttachmentResponseSchema,
} from "../../../shared/schemas/attachments.ts";
import { ErrorResponseSchema, IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { findVisiblePermit } from "../permits/index.ts";
import { findVisibleAttachment, listAttachments, recordAttachmentDigest } from "./attachments.service.ts";
import { receiveUpload } from "./receive-upload.ts";
import { attachmentDisposition, downloadContentType } from "./file-names.ts";

const errors = errorResponses(400, 401, 403, 404);

/** A permit's attachments: list, upload (archiving the current ones) and download. */
export async function attachmentsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, storage, config } = app.ctx;

  r.get(
    "/api/permits/:id/attachments",
    {
      schema: {
        tags: ["attachments"],
        summary: "A permit's attachments (archived ones on request)",
        params: IdParamsSchema,
        querystring: AttachmentListQuerySchema,
        response: { 200: AttachmentListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const permit = await findVisiblePermit(db, actor, request.params.id);
      authorize(canViewAttachments(actor, permit));
      return {
        attachments: await listAttachments(db, permit.id, {
          includeArchived: request.query.include_archived,
        }),
      };
    },
  );

  r.post(
    "/api/permits/:id/attachments",
    {
      schema: {
        tags: ["attachments"],
        summary: 'Upload a file (multipart, one field named "file"); archives the current attachments',
        description: `The size limit is UPLOAD_MAX_BYTES (${config.UPLOAD_MAX_BYTES} bytes here); larger files answer 413.`,
        consumes: ["multipart/form-data"],
        params: IdParamsSchema,
        response: { 201: AttachmentResponseSchema, ...errors, 413: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const permit = await findVisiblePermit(db, actor, request.params.id);
      authorize(canUploadAttachment(actor, permit));
      const attachment = await receiveUpload(app, request, actor, permit, "file");
      return reply.status(201).send({ attachment });
    },
  );

  r.get(
    "/api/attachments/:id/download",
    {
      schema: {
        tags: ["attachments"],
        summary: "Download an attachment (always as a file, never shown inline)",
        description:
          "The stored bytes are checked against the size and SHA-256 recorded at upload before any is sent: " +
          "a file that changed in storage answers 409 FILE_CHANGED and is never served.",
        params: IdParamsSchema,
        produces: ["application/octet-stream"],
        // A stream is sent as is; the schema only documents it.
        response: { 200: z.any().describe("The file's bytes"), ...errors, 409: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const attachment = await findVisibleAttachment(db, actor, request.params.id);
      authorize(canViewAttachments(actor, attachment));
      const file = await openCheckedDownload(
        storage,
        request.log,
        { key: attachment.storageKey, size: attachment.size, sha256: attachment.sha256 },
        { name: "File", ids: { attachmentId: attachment.id } },
        (digest) => recordAttachmentDigest(db, attachment.id, digest.sha256),
      );
      return reply
        .header("content-type", downloadContentType(attachment.contentType))
        .header("content-disposition", attachmentDisposition(attachment.filename))
        .header("content-length", file.size)
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .header("cache-control", "private, no-store")
        .send(file.stream);
    },
  );
}
