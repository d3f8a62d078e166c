import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Actor } from "../../access/actor.ts";
import {
  canCompleteTasks,
  canManageConditions,
  canViewConditions,
  conditionRefusal,
} from "../../access/policies/condition.ts";
import { actorOf } from "../../auth/plugin.ts";
import type { Db } from "../../db/client.ts";
import { authorize, notFound } from "../../errors.ts";
import { lockedWrite } from "../../http/locked-write.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  ConditionInputSchema,
  ConditionSchema,
  PermitConditionsSchema,
  type Condition,
} from "../../../shared/schemas/conditions.ts";
import { createCondition, removeCondition, updateCondition } from "./condition-edit.service.ts";
import { presentCardCondition } from "./conditions.presenter.ts";
import { findConditionPermit, findVisibleCondition, readConditionsCard } from "./conditions.repository.ts";

const errors = errorResponses(400, 401, 403, 404, 409);

/** One condition as the card shows it, read after a write (in its transaction). */
async function readCondition(
  db: Db,
  actor: Actor,
  permitId: string,
  conditionId: string,
): Promise<Condition> {
  const card = await readConditionsCard(db, actor, permitId);
  const found = card?.conditions.find((c) => c.id === conditionId);
  if (!card || !found) throw notFound("Condition");
  return presentCardCondition(actor, found, card.time_zone);
}

/** A permit's Conditions card: the read, and adding, editing and removing conditions. */
export async function conditionsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/permits/:id/conditions",
    {
      schema: {
        tags: ["conditions"],
        summary: "A permit's conditions with their tasks, the owners and event kinds to offer",
        params: IdParamsSchema,
        response: { 200: PermitConditionsSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const card = await readConditionsCard(db, actor, request.params.id);
      if (!card) throw notFound("Permit");
      const permit = { companyId: card.company_id, clientId: card.client_id };
      authorize(canViewConditions(actor, permit));
      const manage = canManageConditions(actor, permit);
      return {
        conditions: card.conditions.map((c) => presentCardCondition(actor, c, card.time_zone)),
        timeZone: card.time_zone,
        can: { manage, complete: canCompleteTasks(actor, permit) },
        owners: manage ? card.owners : [],
        eventKinds: card.event_kinds,
      };
    },
  );

  r.post(
    "/api/permits/:id/conditions",
    {
      schema: {
        tags: ["conditions"],
        summary: "Add a condition (its first task is made)",
        params: IdParamsSchema,
        body: ConditionInputSchema,
        response: { 201: ConditionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const condition = await lockedWrite(db, {
        load: (tx) => findConditionPermit(tx, actor, request.params.id, { forUpdate: true }),
        allow: (permit) => conditionRefusal(actor, permit),
        write: async (tx, permit) =>
          readCondition(tx, actor, permit.permitId, await createCondition(tx, actor, permit, request.body)),
      });
      return reply.status(201).send(condition);
    },
  );

  r.patch(
    "/api/conditions/:id",
    {
      schema: {
        tags: ["conditions"],
        summary: "Edit a condition (a changed schedule moves its open task)",
        params: IdParamsSchema,
        body: ConditionInputSchema,
        response: { 200: ConditionSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return lockedWrite(db, {
        load: (tx) => findVisibleCondition(tx, actor, request.params.id, { forUpdate: true }),
        allow: (found) => conditionRefusal(actor, found.permit),
        write: async (tx, found) => {
          await updateCondition(tx, actor, found, request.body);
          return readCondition(tx, actor, found.permit.permitId, found.condition.id);
        },
      });
    },
  );

  r.delete(
    "/api/conditions/:id",
    {
      schema: {
        tags: ["conditions"],
        summary: "Remove a condition (kept with its closed tasks; its open tasks become Not Applicable)",
        params: IdParamsSchema,
        response: { 204: z.null().describe("Removed"), ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await lockedWrite(db, {
        load: (tx) => findVisibleCondition(tx, actor, request.params.id, { forUpdate: true }),
        allow: (found) => conditionRefusal(actor, found.permit),
        write: (tx, found) => removeCondition(tx, actor, found),
      });
      return reply.status(204).send(null);
    },
  );
}
