import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { targetCompanyId } from "../../access/actor.ts";
import { canManageWebhook, canManageWebhooks, webhookListCan } from "../../access/policies/webhook.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  WEBHOOK_DELIVERIES_PAGE_SIZE,
  WebhookCreatedSchema,
  WebhookDeliveriesQuerySchema,
  WebhookDeliveryListSchema,
  WebhookDeliveryParamsSchema,
  WebhookDeliveryResponseSchema,
  WebhookInputSchema,
  WebhookListQuerySchema,
  WebhookListSchema,
  WebhookPatchSchema,
  WebhookResponseSchema,
} from "../../../shared/schemas/webhooks.ts";
import { assertCompanyExists } from "../clients/index.ts";
import { loadDelivery, loadDeliveryPage } from "./deliveries.query.ts";
import { resendDelivery, sendTestEvent } from "./manual.ts";
import {
  createWebhook,
  deleteWebhook,
  findDelivery,
  findVisibleWebhook,
  listWebhooks,
  presentWebhook,
  updateWebhook,
} from "./webhooks.service.ts";
import { dispatchContext } from "./worker.ts";

const errors = errorResponses(400, 401, 403, 404, 409);
const tags = ["webhooks"];
/** A key never manages webhooks (server/auth/api-key-auth.ts closes the prefix too). */
const config = { noApiKey: true };

/** Admin area 'Webhooks' (issue 30, items 3 and 4): company admins, and super-admins naming the company. */
export async function webhooksRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, links } = app.ctx;
  const allowPrivate = app.ctx.config.WEBHOOKS_ALLOW_PRIVATE;

  r.get(
    "/api/webhooks",
    {
      config,
      schema: {
        tags,
        summary:
          "The company's webhook endpoints, newest first, each with its last delivery (never secrets); admins",
        querystring: WebhookListQuerySchema,
        response: { 200: WebhookListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canManageWebhooks(actor));
      return {
        webhooks: await listWebhooks(db, actor, request.query.company_id),
        can: webhookListCan(actor),
      };
    },
  );

  r.post(
    "/api/webhooks",
    {
      config,
      schema: {
        tags,
        summary:
          "Add a webhook endpoint; the answer holds its signing secret (whsec_...), shown this once. A URL whose " +
          "host resolves to a loopback, private or link-local address is refused (400)",
        body: WebhookInputSchema,
        response: { 201: WebhookCreatedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canManageWebhooks(actor));
      const companyId = targetCompanyId(actor, request.body.company_id);
      await assertCompanyExists(db, companyId);
      const { row, secret } = await createWebhook(db, links, actor, companyId, request.body, allowPrivate);
      return reply.status(201).send({ webhook: presentWebhook(actor, row), secret });
    },
  );

  r.patch(
    "/api/webhooks/:id",
    {
      config,
      schema: {
        tags,
        summary:
          "Change an endpoint's URL, format or events, or enable or disable it (enabling clears its failures)",
        params: IdParamsSchema,
        body: WebhookPatchSchema,
        response: { 200: WebhookResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const endpoint = await findVisibleWebhook(db, actor, request.params.id);
      authorize(canManageWebhook(actor, endpoint));
      return {
        webhook: presentWebhook(actor, await updateWebhook(db, actor, endpoint, request.body, allowPrivate)),
      };
    },
  );

  r.delete(
    "/api/webhooks/:id",
    {
      config,
      schema: {
        tags,
        summary: "Delete an endpoint with its deliveries and their log",
        params: IdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const endpoint = await findVisibleWebhook(db, actor, request.params.id);
      authorize(canManageWebhook(actor, endpoint));
      await deleteWebhook(db, actor, endpoint);
      return reply.status(204).send(null);
    },
  );

  r.get(
    "/api/webhooks/:id/deliveries",
    {
      config,
      schema: {
        tags,
        summary:
          "An endpoint's delivery log: deliveries newest first with their attempts (status code, duration, answer)",
        params: IdParamsSchema,
        querystring: WebhookDeliveriesQuerySchema,
        response: { 200: WebhookDeliveryListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const endpoint = await findVisibleWebhook(db, actor, request.params.id);
      authorize(canManageWebhook(actor, endpoint));
      const { page } = request.query;
      const { deliveries, total } = await loadDeliveryPage(
        db,
        endpoint.id,
        page,
        WEBHOOK_DELIVERIES_PAGE_SIZE,
        true,
      );
      return {
        webhook: presentWebhook(actor, endpoint),
        deliveries,
        total,
        page,
        page_size: WEBHOOK_DELIVERIES_PAGE_SIZE,
      };
    },
  );

  r.post(
    "/api/webhooks/:id/deliveries/:deliveryId/resend",
    {
      config,
      schema: {
        tags,
        summary: "Send a delivery again now, with the same webhook-id; answers after the attempt",
        params: WebhookDeliveryParamsSchema,
        response: { 200: WebhookDeliveryResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const endpoint = await findVisibleWebhook(db, actor, request.params.id);
      authorize(canManageWebhook(actor, endpoint));
      const delivery = await findDelivery(db, endpoint, request.params.deliveryId);
      await resendDelivery(dispatchContext(app), delivery.id);
      return { delivery: await loadDelivery(db, delivery.id, true) };
    },
  );

  r.post(
    "/api/webhooks/:id/test",
    {
      config,
      schema: {
        tags,
        summary: "'Send Test Event': a webhook.test event to this endpoint now; answers after the attempt",
        params: IdParamsSchema,
        response: { 200: WebhookDeliveryResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const endpoint = await findVisibleWebhook(db, actor, request.params.id);
      authorize(canManageWebhook(actor, endpoint));
      const id = await sendTestEvent(dispatchContext(app), endpoint, actor.name);
      return { delivery: await loadDelivery(db, id, true) };
    },
  );
}
