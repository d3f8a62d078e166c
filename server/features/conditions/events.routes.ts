import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { canLogProjectEvent, canViewProjectEvents } from "../../access/policies/condition.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  EventCreatedSchema,
  EventInputSchema,
  ProjectEventsSchema,
} from "../../../shared/schemas/conditions.ts";
import { findEventProject } from "./conditions.repository.ts";
import { listProjectEvents, logProjectEvent, presentEvent } from "./project-events.service.ts";

const errors = errorResponses(400, 401, 403, 404);

/** 'Log Event' on a project and its list of events. */
export async function eventsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.post(
    "/api/projects/:id/events",
    {
      schema: {
        tags: ["conditions"],
        summary: "Log an event on a project: its open permits' conditions of that kind get their tasks",
        params: IdParamsSchema,
        body: EventInputSchema,
        response: { 201: EventCreatedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const project = await findEventProject(db, actor, request.params.id);
      authorize(canLogProjectEvent(actor, project));
      const logged = await db.transaction((tx) =>
        logProjectEvent(tx, actor, project, {
          kind: request.body.kind,
          occurredAt: request.body.occurredAt,
          note: request.body.note ?? null,
        }),
      );
      return reply.status(201).send({
        event: presentEvent(logged.event),
        tasksCreated: logged.tasksCreated,
        permits: logged.permits,
      });
    },
  );

  r.get(
    "/api/projects/:id/events",
    {
      schema: {
        tags: ["conditions"],
        summary: "A project's events, newest first, and the kinds to offer",
        params: IdParamsSchema,
        response: { 200: ProjectEventsSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const project = await findEventProject(db, actor, request.params.id);
      authorize(canViewProjectEvents(actor, project));
      return { ...(await listProjectEvents(db, project)), can: { log: canLogProjectEvent(actor, project) } };
    },
  );
}
