import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { targetCompanyId } from "../../access/actor.ts";
import {
  canCreateClient,
  canDeleteClient,
  canEditClient,
  canListClients,
  canViewClient,
} from "../../access/policies/client.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import {
  ClientCreateSchema,
  ClientListQuerySchema,
  ClientListSchema,
  ClientResponseSchema,
  ClientUpdateSchema,
} from "../../../shared/schemas/clients.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { createClient, deleteClient, getClient, listClients, renameClient } from "./clients.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409);

/** Clients of a company (spec sections 2 and 5): super-admins for any company, company-admins for their own. */
export async function clientsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/clients",
    {
      schema: {
        tags: ["clients"],
        summary: "List clients by name (a super-admin may filter by company)",
        querystring: ClientListQuerySchema,
        response: { 200: ClientListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListClients(actor));
      return { clients: await listClients(db, actor, request.query.company_id) };
    },
  );

  r.get(
    "/api/clients/:id",
    {
      schema: {
        tags: ["clients"],
        summary: "One client",
        params: IdParamsSchema,
        response: { 200: ClientResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const client = await getClient(db, actor, request.params.id);
      authorize(canViewClient(actor, client));
      return { client };
    },
  );

  r.post(
    "/api/clients",
    {
      schema: {
        tags: ["clients"],
        summary: "Create a client (names are unique within a company, case-insensitively)",
        body: ClientCreateSchema,
        response: { 201: ClientResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canCreateClient(actor));
      const companyId = targetCompanyId(actor, request.body.company_id);
      const client = await createClient(db, actor, companyId, request.body.name);
      return reply.status(201).send({ client });
    },
  );

  r.put(
    "/api/clients/:id",
    {
      schema: {
        tags: ["clients"],
        summary: "Rename a client (its projects and permits follow: they refer to it by id)",
        params: IdParamsSchema,
        body: ClientUpdateSchema,
        response: { 200: ClientResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const client = await getClient(db, actor, request.params.id);
      authorize(canEditClient(actor, client));
      return { client: await renameClient(db, actor, client, request.body.name) };
    },
  );

  r.delete(
    "/api/clients/:id",
    {
      schema: {
        tags: ["clients"],
        summary: "Delete a client that has no projects (refused with the count otherwise)",
        params: IdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const client = await getClient(db, actor, request.params.id);
      authorize(canDeleteClient(actor, client));
      await deleteClient(db, actor, client);
      return reply.status(204).send(null);
    },
  );
}
