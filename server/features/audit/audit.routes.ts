import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { canViewPermitAudit } from "../../access/policies/audit.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { AuditListSchema } from "../../../shared/schemas/audit.ts";
import { listVisiblePermitAudit } from "./audit.service.ts";

const errors = errorResponses(400, 401, 404);

/** The permit audit trail, read-only: entries are written by the services that make the changes. */
export async function auditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/permits/:id/audit",
    {
      schema: {
        tags: ["audit"],
        summary: "A permit's audit trail, newest first",
        params: IdParamsSchema,
        response: { 200: AuditListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const found = await listVisiblePermitAudit(db, actor, request.params.id);
      authorize(canViewPermitAudit(actor, found.permit));
      return { entries: found.entries, currency: found.currency };
    },
  );
}
