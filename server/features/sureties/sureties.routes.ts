import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { targetCompanyId } from "../../access/actor.ts";
import {
  canCreateSurety,
  canDeleteSurety,
  canEditSurety,
  canListSureties,
  suretyListCan,
} from "../../access/policies/surety.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import {
  SuretyInputSchema,
  SuretyListQuerySchema,
  SuretyListSchema,
  SuretyResponseSchema,
} from "../../../shared/schemas/sureties.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { assertCompanyExists } from "../clients/index.ts";
import {
  createSurety,
  deleteSurety,
  findVisibleSurety,
  listSureties,
  presentOneSurety,
  updateSurety,
} from "./sureties.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409);
const tags = ["bonds"];

/** Surety Admin (issue 12): a company's surety companies; admins write, whoever sees bonds reads. */
export async function suretiesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/sureties",
    {
      schema: {
        tags,
        summary:
          "The company's sureties by name (a super-admin may name the company); limits for admins only, a client-user its clients' bonds' sureties by name",
        querystring: SuretyListQuerySchema,
        response: { 200: SuretyListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListSureties(actor));
      return {
        sureties: await listSureties(db, actor, request.query.company_id),
        can: suretyListCan(actor),
      };
    },
  );

  r.post(
    "/api/sureties",
    {
      schema: {
        tags,
        summary: "Add a surety (company-admin, super-admin naming the company); names are unique per company",
        body: SuretyInputSchema,
        response: { 201: SuretyResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canCreateSurety(actor));
      const companyId = targetCompanyId(actor, request.body.company_id);
      await assertCompanyExists(db, companyId);
      const row = await createSurety(db, actor, companyId, request.body);
      return reply.status(201).send({ surety: await presentOneSurety(db, actor, row.id) });
    },
  );

  r.put(
    "/api/sureties/:id",
    {
      schema: {
        tags,
        summary: "Edit a surety's name, contact and limits (admins)",
        params: IdParamsSchema,
        body: SuretyInputSchema,
        response: { 200: SuretyResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const surety = await findVisibleSurety(db, actor, request.params.id);
      authorize(canEditSurety(actor, surety));
      await updateSurety(db, actor, surety, request.body);
      return { surety: await presentOneSurety(db, actor, surety.id) };
    },
  );

  r.delete(
    "/api/sureties/:id",
    {
      schema: {
        tags,
        summary: "Delete a surety no bond names (409 otherwise)",
        params: IdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const surety = await findVisibleSurety(db, actor, request.params.id);
      authorize(canDeleteSurety(actor, surety));
      await deleteSurety(db, actor, surety);
      return reply.status(204).send(null);
    },
  );
}
