import { actorCan, type Actor } from "../actor.ts";
import { withinScope } from "./scope.ts";

/*
 * API keys (issue 30): admins manage their company's keys (a super-admin any company's). A key
 * itself never reaches these routes (server/auth/api-key-auth.ts closes them); the policy refuses
 * a key actor too, so the rule holds even if a route forgot.
 */

const isPerson = (actor: Actor) => !actor.apiKeyId;

export const canManageApiKeys = (actor: Actor) => actorCan(actor, "apiKeys.manage") && isPerson(actor);

/** A key already revoked is refused by the service (409): a state, not a right. */
export const canRevokeApiKey = (actor: Actor, key: { companyId: string }) =>
  canManageApiKeys(actor) && withinScope(actor, { companyId: key.companyId });

export const apiKeyCan = (actor: Actor, key: { companyId: string; revokedAt: Date | null }) => ({
  revoke: canRevokeApiKey(actor, key) && !key.revokedAt,
});

export const apiKeyListCan = (actor: Actor) => ({ create: canManageApiKeys(actor) });
