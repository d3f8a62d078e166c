import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { canExportPermits } from "../../access/policies/export.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { todayIn } from "../../../shared/domain/dates.ts";
import { PermitExportQuerySchema } from "../../../shared/schemas/permit-list-query.ts";
import { exportCsv, exportXlsx } from "./export.service.ts";
import { FILE_TYPES } from "./writers.ts";

const TYPES = FILE_TYPES;

/** Export of the All Permits list's current view (same filters, sort and access rules) as CSV or Excel. */
export async function exportsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/permits/export",
    {
      schema: {
        tags: ["permits"],
        summary: "The list's current view as a CSV or Excel file (every page, same filters and order)",
        querystring: PermitExportQuerySchema,
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canExportPermits(actor));
      const { format, ...query } = request.query;
      const stream =
        format === "xlsx" ? exportXlsx(app.ctx.db, actor, query) : exportCsv(app.ctx.db, actor, query);
      return reply
        .type(TYPES[format])
        .header("content-disposition", `attachment; filename="permits-${todayIn("UTC")}.${format}"`)
        .header("cache-control", "no-store")
        .send(stream);
    },
  );
}
