import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Actor } from "../../access/actor.ts";
import { canViewLifecycle, lifecycleRefusal, type LifecycleStep } from "../../access/policies/lifecycle.ts";
import type { Db } from "../../db/client.ts";
import { lockedWrite } from "../../http/locked-write.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  CloseInputSchema,
  ExtensionInputSchema,
  InspectionInputSchema,
  LifecycleSchema,
  RenewalInputSchema,
} from "../../../shared/schemas/lifecycle.ts";
import { findVisiblePermit, type PermitRow } from "../permits/index.ts";
import {
  acknowledgePermit,
  closePermit,
  extendPermit,
  loadLifecycle,
  recordInspection,
  renewPermit,
} from "./lifecycle.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409);
const tags = ["lifecycle"];

/**
 * The life of a permit after it is issued: terms (renewals, extensions), inspections (which may move
 * the expiry), acknowledgement in the app (a reminder's link: reminders/acknowledge.routes.ts) and closing.
 */
export async function lifecycleRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/permits/:id/lifecycle",
    {
      schema: {
        tags,
        summary: "A permit's terms, inspections, acknowledgement and closing, with what the actor may do",
        params: IdParamsSchema,
        response: { 200: LifecycleSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const permit = await findVisiblePermit(db, actor, request.params.id);
      authorize(canViewLifecycle(actor, permit));
      return loadLifecycle(db, actor, permit);
    },
  );

  /**
   * Every lifecycle step, one load per write: the permit locked in the step's transaction, scoped
   * (404), the step's refusal on the locked row (403 / 409), the service, then the new lifecycle.
   */
  const step = <B>(
    url: string,
    summary: string,
    body: z.ZodType<B>,
    name: LifecycleStep,
    run: (tx: Db, actor: Actor, permit: PermitRow, input: B) => Promise<PermitRow>,
  ) =>
    r.post(
      url,
      {
        schema: {
          tags,
          summary,
          params: IdParamsSchema,
          body,
          response: { 200: LifecycleSchema, ...errors },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const updated = await lockedWrite(db, {
          load: (tx) => findVisiblePermit(tx, actor, request.params.id, { forUpdate: true }),
          allow: (permit) => lifecycleRefusal(name, actor, permit),
          write: (tx, permit) => run(tx, actor, permit, request.body as B),
        });
        return loadLifecycle(db, actor, updated);
      },
    );

  step(
    "/api/permits/:id/renewals",
    "Renew: close the current term and start a new one (new expiration date after the current one)",
    RenewalInputSchema,
    "renew",
    renewPermit,
  );
  step(
    "/api/permits/:id/extensions",
    "Extend: the same term with a later expiration date, and a reason",
    ExtensionInputSchema,
    "extend",
    extendPermit,
  );
  step(
    "/api/permits/:id/inspections",
    "Record an inspection; under 'Days after last passed inspection' a pass moves the expiry",
    InspectionInputSchema,
    "inspect",
    recordInspection,
  );
  step(
    "/api/permits/:id/acknowledgement",
    "Acknowledge the current term: stops its routine reminders and escalation for everyone",
    z.object({}).optional(),
    "acknowledge",
    acknowledgePermit,
  );
  step(
    "/api/permits/:id/close",
    "Close the permit: close date and final status; no reminders after it",
    CloseInputSchema,
    "close",
    closePermit,
  );
}
