import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { targetCompanyId } from "../../access/actor.ts";
import { apiKeyListCan, canManageApiKeys, canRevokeApiKey } from "../../access/policies/api-key.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import {
  ApiKeyCreatedSchema,
  ApiKeyInputSchema,
  ApiKeyListQuerySchema,
  ApiKeyListSchema,
  ApiKeyResponseSchema,
} from "../../../shared/schemas/api-keys.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { assertCompanyExists } from "../clients/index.ts";
import {
  createApiKey,
  findVisibleApiKey,
  listApiKeys,
  presentApiKey,
  revokeApiKey,
} from "./api-keys.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409);
const tags = ["api-keys"];
/** A key never manages keys (server/auth/api-key-auth.ts closes the prefix too). */
const config = { noApiKey: true };

/** Admin area 'API Keys' (issue 30, item 5): company admins, and super-admins naming the company. */
export async function apiKeysRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/api-keys",
    {
      config,
      schema: {
        tags,
        summary: "The company's API keys, newest first (never their values); admins",
        querystring: ApiKeyListQuerySchema,
        response: { 200: ApiKeyListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canManageApiKeys(actor));
      return { api_keys: await listApiKeys(db, actor, request.query.company_id), can: apiKeyListCan(actor) };
    },
  );

  r.post(
    "/api/api-keys",
    {
      config,
      schema: {
        tags,
        summary: "Create an API key; the answer holds the key, shown this once (only its SHA-256 is kept)",
        body: ApiKeyInputSchema,
        response: { 201: ApiKeyCreatedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canManageApiKeys(actor));
      const companyId = targetCompanyId(actor, request.body.company_id);
      await assertCompanyExists(db, companyId);
      const { row, key } = await createApiKey(db, actor, companyId, request.body);
      return reply.status(201).send({ api_key: presentApiKey(actor, row), key });
    },
  );

  r.post(
    "/api/api-keys/:id/revoke",
    {
      config,
      schema: {
        tags,
        summary: "Revoke an API key: it answers 401 from the next request on",
        params: IdParamsSchema,
        response: { 200: ApiKeyResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const key = await findVisibleApiKey(db, actor, request.params.id);
      authorize(canRevokeApiKey(actor, key));
      return { api_key: presentApiKey(actor, await revokeApiKey(db, actor, key)) };
    },
  );
}
