import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  canAcknowledgePermit,
  canClosePermit,
  canExtendPermit,
  canRecordInspection,
  canRenewPermit,
  canViewLifecycle,
} from "../../access/policies/lifecycle.ts";
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
import { findVisiblePermit } from "../permits/index.ts";
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

  /** Every lifecycle step: load scoped → policy → service (one transaction) → the new lifecycle. */
  const step = <B>(
    url: string,
    summary: string,
    body: z.ZodType<B>,
    policy: typeof canRenewPermit,
    run: (actor: ReturnType<typeof actorOf>, id: string, input: B) => Promise<unknown>,
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
        const permit = await findVisiblePermit(db, actor, request.params.id);
        authorize(policy(actor, permit));
        await run(actor, permit.id, request.body as B);
        return loadLifecycle(db, actor, await findVisiblePermit(db, actor, permit.id));
      },
    );

  step(
    "/api/permits/:id/renewals",
    "Renew: close the current term and start a new one (new expiration date after the current one)",
    RenewalInputSchema,
    canRenewPermit,
    (actor, id, input) => renewPermit(db, actor, id, input),
  );
  step(
    "/api/permits/:id/extensions",
    "Extend: the same term with a later expiration date, and a reason",
    ExtensionInputSchema,
    canExtendPermit,
    (actor, id, input) => extendPermit(db, actor, id, input),
  );
  step(
    "/api/permits/:id/inspections",
    "Record an inspection; under 'Days after last passed inspection' a pass moves the expiry",
    InspectionInputSchema,
    canRecordInspection,
    (actor, id, input) => recordInspection(db, actor, id, input),
  );
  step(
    "/api/permits/:id/acknowledgement",
    "Acknowledge the current term: stops its routine reminders and escalation for everyone",
    z.object({}).optional(),
    canAcknowledgePermit,
    (actor, id) => acknowledgePermit(db, actor, id),
  );
  step(
    "/api/permits/:id/close",
    "Close the permit: close date and final status; no reminders after it",
    CloseInputSchema,
    canClosePermit,
    (actor, id, input) => closePermit(db, actor, id, input),
  );
}
