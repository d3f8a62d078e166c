import { actorCan, type Actor } from "../actor.ts";
import { withinScope } from "./scope.ts";

/*
 * Webhooks (issue 30): admins manage their company's endpoints (a super-admin any company's). An
 * API key never reaches these routes (server/auth/api-key-auth.ts closes /api/webhooks); the
 * policy refuses a key actor too, so the rule holds even if a route forgot.
 */

const isPerson = (actor: Actor) => !actor.apiKeyId;

export const canManageWebhooks = (actor: Actor) => actorCan(actor, "webhooks.manage") && isPerson(actor);

/** Edit, enable, disable, delete, read the delivery log, resend, send a test event. */
export const canManageWebhook = (actor: Actor, endpoint: { companyId: string }) =>
  canManageWebhooks(actor) && withinScope(actor, { companyId: endpoint.companyId });

export const webhookCan = (actor: Actor, endpoint: { companyId: string }) => ({
  edit: canManageWebhook(actor, endpoint),
  delete: canManageWebhook(actor, endpoint),
});

export const webhookListCan = (actor: Actor) => ({ create: canManageWebhooks(actor) });
