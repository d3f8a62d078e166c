import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { canListRequestQueue } from "../../access/policies/document-request.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { errorResponses } from "../../../shared/schemas/common.ts";
import {
  AwaitingCountSchema,
  RequestQueueQuerySchema,
  RequestQueueSchema,
} from "../../../shared/schemas/request-queue.ts";
import { countAwaitingReview, listRequestQueue } from "./request-queue.query.ts";

const errors = errorResponses(400, 401, 403);
const tags = ["document requests"];

/**
 * The company-wide Requests page and the nav's count of requests awaiting review (issue 27):
 * staff (a super-admin every company's, or the one named); a client-user 403.
 */
export async function requestQueueRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/requests",
    {
      schema: {
        tags,
        summary:
          "One page of the company's document requests (awaiting review first), filtered by state, party and due date",
        querystring: RequestQueueQuerySchema,
        response: { 200: RequestQueueSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListRequestQueue(actor));
      return listRequestQueue(db, actor, request.query);
    },
  );

  r.get(
    "/api/requests/awaiting-count",
    {
      schema: {
        tags,
        summary: "How many document requests await review in the user's company (the nav's badge)",
        response: { 200: AwaitingCountSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListRequestQueue(actor));
      return { count: await countAwaitingReview(db, actor) };
    },
  );
}
