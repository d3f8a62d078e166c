import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Actor } from "../../access/actor.ts";
import { canDownloadEvidence, taskRefusal } from "../../access/policies/condition.ts";
import { actorOf } from "../../auth/plugin.ts";
import { allow, authorize, notFound, validation } from "../../errors.ts";
import { lockedWrite } from "../../http/locked-write.ts";
import { openCheckedDownload } from "../../storage/checked-download.ts";
import { ErrorResponseSchema, IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  CompleteTaskFieldsSchema,
  NotApplicableInputSchema,
  TaskChangeSchema,
} from "../../../shared/schemas/conditions.ts";
import {
  attachmentDisposition,
  downloadContentType,
  receiveForm,
  type StoredUpload,
} from "../attachments/index.ts";
import { presentTask } from "./conditions.presenter.ts";
import { findVisibleTask } from "./conditions.repository.ts";
import { photoTypeOf, PHOTO_REQUIRED } from "./photo.ts";
import { checkEvidence, completeTask, markNotApplicable, type TaskChange } from "./task-complete.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409);

/** Where a company's task evidence is stored. */
export const evidencePrefix = (companyId: string) => `companies/${companyId}/evidence`;

function fieldsOf(result: z.ZodSafeParseResult<unknown>): never | void {
  if (result.success) return;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[String(issue.path[0] ?? "_")] ??= issue.message;
  throw validation(fields);
}

const presentChange = (actor: Actor, c: TaskChange) => ({
  task: presentTask(actor, c.task, c.event),
  next: c.next ? presentTask(actor, c.next) : null,
});

/** A task's Complete (with its note and evidence), Not Applicable, and its evidence's download. */
export async function tasksRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, storage } = app.ctx;

  r.post(
    "/api/tasks/:id/complete",
    {
      schema: {
        tags: ["conditions"],
        summary:
          "Complete a task: multipart `note` and `file` (the evidence, required when the condition says so)",
        consumes: ["multipart/form-data"],
        params: IdParamsSchema,
        response: { 200: TaskChangeSchema, ...errors, 413: ErrorResponseSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const id = request.params.id;
      // Scoped and allowed before a byte is stored (404, 403, 409); checked again on the locked row.
      const pre = await findVisibleTask(db, actor, id);
      allow(taskRefusal(actor, pre.permit));
      const change = await receiveForm(
        app,
        request,
        pre.permit.companyId,
        evidencePrefix(pre.permit.companyId),
        async (stored, fields) => {
          const parsed = CompleteTaskFieldsSchema.safeParse({ note: fields.note });
          fieldsOf(parsed);
          checkEvidence(pre.condition, stored);
          let evidence: StoredUpload | null = stored;
          if (stored && pre.condition.evidence === "photo") {
            const type = await photoTypeOf(storage, stored.key);
            if (!type) throw validation({ file: PHOTO_REQUIRED });
            evidence = { ...stored, contentType: type };
          }
          return lockedWrite(db, {
            load: (tx) => findVisibleTask(tx, actor, id, { forUpdate: true }),
            allow: (found) => taskRefusal(actor, found.permit),
            write: (tx, found) =>
              completeTask(tx, actor, found, { note: parsed.data?.note ?? null, evidence }),
          });
        },
      );
      return presentChange(actor, change);
    },
  );

  r.post(
    "/api/tasks/:id/not-applicable",
    {
      schema: {
        tags: ["conditions"],
        summary: "Mark a task Not Applicable, with a reason",
        params: IdParamsSchema,
        body: NotApplicableInputSchema,
        response: { 200: TaskChangeSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const change = await lockedWrite(db, {
        load: (tx) => findVisibleTask(tx, actor, request.params.id, { forUpdate: true }),
        allow: (found) => taskRefusal(actor, found.permit),
        write: (tx, found) => markNotApplicable(tx, actor, found, request.body.reason),
      });
      return presentChange(actor, change);
    },
  );

  r.get(
    "/api/tasks/:id/evidence",
    {
      schema: {
        tags: ["conditions"],
        summary: "Download a task's evidence (checked against its size and SHA-256 first)",
        params: IdParamsSchema,
        produces: ["application/octet-stream"],
        response: { 200: z.any().describe("The file's bytes"), ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { task, permit } = await findVisibleTask(db, actor, request.params.id);
      authorize(canDownloadEvidence(actor, permit));
      if (!task.evidenceKey || task.evidenceSize === null || !task.evidenceName) throw notFound("Evidence");
      const file = await openCheckedDownload(
        storage,
        request.log,
        { key: task.evidenceKey, size: task.evidenceSize, sha256: task.evidenceSha256 },
        { name: "Evidence", ids: { taskId: task.id } },
      );
      return reply
        .header("content-type", downloadContentType(task.evidenceContentType ?? "application/octet-stream"))
        .header("content-disposition", attachmentDisposition(task.evidenceName))
        .header("content-length", file.size)
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .header("cache-control", "private, no-store")
        .send(file.stream);
    },
  );
}
