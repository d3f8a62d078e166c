import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  canCreateSavedView,
  canDeleteSavedView,
  canEditSavedView,
  canListSavedViews,
} from "../../access/policies/saved-view.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  SavedViewInputSchema,
  SavedViewListSchema,
  SavedViewResponseSchema,
  SavedViewUpdateSchema,
} from "../../../shared/schemas/saved-views.ts";
import {
  createSavedView,
  deleteSavedView,
  findOwnSavedView,
  listSavedViews,
  presentSavedView,
  updateSavedView,
} from "./saved-views.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409);
const tags = ["saved views"];

/** A user's saved views of the All Permits list (issue 14): private to the user. */
export async function savedViewsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/saved-views",
    {
      schema: {
        tags,
        summary: "The signed-in user's saved views of the All Permits list, by name",
        response: { 200: SavedViewListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListSavedViews(actor));
      return { views: (await listSavedViews(db, actor)).map(presentSavedView) };
    },
  );

  r.post(
    "/api/saved-views",
    {
      schema: {
        tags,
        summary: "Save the list's current filters under a name (names are unique per user)",
        body: SavedViewInputSchema,
        response: { 201: SavedViewResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canCreateSavedView(actor));
      const view = await createSavedView(db, actor, request.body);
      return reply.status(201).send({ view: presentSavedView(view) });
    },
  );

  r.put(
    "/api/saved-views/:id",
    {
      schema: {
        tags,
        summary: "Rename one of your views or replace its filters",
        params: IdParamsSchema,
        body: SavedViewUpdateSchema,
        response: { 200: SavedViewResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const view = await findOwnSavedView(db, actor, request.params.id);
      authorize(canEditSavedView(actor, view));
      return { view: presentSavedView(await updateSavedView(db, view, request.body)) };
    },
  );

  r.delete(
    "/api/saved-views/:id",
    {
      schema: {
        tags,
        summary: "Delete one of your views",
        params: IdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const view = await findOwnSavedView(db, actor, request.params.id);
      authorize(canDeleteSavedView(actor, view));
      await deleteSavedView(db, view);
      return reply.status(204).send(null);
    },
  );
}
