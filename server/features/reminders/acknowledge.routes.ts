import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../../shared/schemas/common.ts";
import { AcknowledgeLinkSchema, AcknowledgeTokenParamsSchema } from "../../../shared/schemas/lifecycle.ts";
import { acknowledgeByLink, readAcknowledgeLink } from "./acknowledge-link.ts";

const errors = errorResponses(400, 401, 403, 404, 409);
const tags = ["reminders"];

/**
 * A reminder e-mail's 'Acknowledge' link: no session, one action. GET only reads (mail scanners
 * follow links); the page's button POSTs, with the API's CSRF header like every write. The token
 * never reaches a log line (`linkToken`).
 */
export async function acknowledgeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, links } = app.ctx;
  r.get(
    "/api/acknowledgements/:token",
    {
      config: { isPublic: true, linkToken: "token" },
      schema: {
        tags,
        summary: "What an Acknowledge link from a reminder e-mail is about (no sign-in)",
        params: AcknowledgeTokenParamsSchema,
        response: { 200: AcknowledgeLinkSchema, ...errors },
      },
    },
    async (request) => readAcknowledgeLink(db, links, request.params.token),
  );
  r.post(
    "/api/acknowledgements/:token",
    {
      config: { isPublic: true, linkToken: "token" },
      schema: {
        tags,
        summary: "Acknowledge from a reminder e-mail's link (no sign-in; that one action only)",
        params: AcknowledgeTokenParamsSchema,
        response: { 200: AcknowledgeLinkSchema, ...errors },
      },
    },
    async (request) => acknowledgeByLink(db, links, request.params.token),
  );
}
