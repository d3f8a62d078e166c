import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  canAcceptSuggestions,
  canReadDocumentReadings,
  canStageDocument,
} from "../../access/policies/document-reading.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { lockedWrite } from "../../http/locked-write.ts";
import { ErrorResponseSchema, IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  AcceptSuggestionsResponseSchema,
  AcceptSuggestionsSchema,
  DocumentReadingListSchema,
  DocumentReadingResponseSchema,
} from "../../../shared/schemas/document-readings.ts";
import { findVisiblePermit, presentPermit } from "../permits/index.ts";
import { acceptSuggestions } from "./accept.service.ts";
import { findVisibleReading, listPermitReadings, presentReading } from "./readings.repository.ts";
import { receiveStagedFile } from "./staged-upload.ts";

const errors = errorResponses(400, 401, 403, 404);
const tags = ["document readings"];

/**
 * Issue 28: what the reader read of uploaded files, for staff (a client-user: 403, never a
 * suggestion), and accepting its suggestions into a permit. Another company's reading or permit: 404.
 */
export async function documentsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app.ctx;

  r.post(
    "/api/document-readings",
    {
      schema: {
        tags,
        summary:
          'The new-permit form\'s file, read before the permit exists (multipart: a super-admin\'s "company_id" field, then "file")',
        description: `PDF, PNG, JPEG or TIFF; the size limit is UPLOAD_MAX_BYTES (${config.UPLOAD_MAX_BYTES} bytes here). Answers the reading (pending); the same file read before in the company answers that reading.`,
        consumes: ["multipart/form-data"],
        response: { 202: DocumentReadingResponseSchema, ...errors, 413: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canStageDocument(actor) && canReadDocumentReadings(actor));
      const reading = await receiveStagedFile(app, request, actor);
      return reply.status(202).send({ reading: presentReading(reading) });
    },
  );

  r.get(
    "/api/document-readings/:id",
    {
      schema: {
        tags,
        summary: "A reading: its status, notice or error, and the suggested values",
        params: IdParamsSchema,
        response: { 200: DocumentReadingResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canReadDocumentReadings(actor));
      const reading = await findVisibleReading(db, actor, request.params.id);
      authorize(canReadDocumentReadings(actor, reading));
      return { reading: presentReading(reading) };
    },
  );

  r.get(
    "/api/permits/:id/document-readings",
    {
      schema: {
        tags,
        summary: "The readings of a permit's current files (ledger documents included), newest first",
        params: IdParamsSchema,
        response: { 200: DocumentReadingListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const permit = await findVisiblePermit(db, actor, request.params.id);
      authorize(canReadDocumentReadings(actor, permit));
      return { readings: (await listPermitReadings(db, permit)).map(presentReading) };
    },
  );

  r.post(
    "/api/permits/:id/accept-suggestions",
    {
      schema: {
        tags,
        summary:
          "Save values a person accepted from a reading: through the permit's edit, a bond's ledger (a Rider) or an inspection; audited 'from document X, page N'",
        params: IdParamsSchema,
        body: AcceptSuggestionsSchema,
        response: { 200: AcceptSuggestionsResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const updated = await lockedWrite(db, {
        load: (tx) => findVisiblePermit(tx, actor, request.params.id, { forUpdate: true }),
        allow: (permit) => canAcceptSuggestions(actor, permit),
        write: (tx, permit) => acceptSuggestions(tx, actor, permit, request.body),
      });
      return { permit: await presentPermit(db, actor, updated) };
    },
  );
}
