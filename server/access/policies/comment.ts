import { actorCan, type Actor } from "../actor.ts";
import { withinScope, type TenantRecord } from "./scope.ts";

/**
 * Internal comments are staff-only: a client-user never reads one, from the comments, the audit
 * trail, the list's counts or an export.
 */
export const canReadInternalComments = (actor: Actor) => actorCan(actor, "comments.viewInternal");

/** Reading a permit's comments goes with seeing the permit. */
export const canViewComments = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "permits.view") && withinScope(actor, permit);

export const canCommentOnPermit = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "comments.create") && withinScope(actor, permit);

/** Whoever may not read internal comments cannot write one either (a client-user's flag is ignored). */
export const canWriteInternalComment = (actor: Actor, permit: TenantRecord) =>
  canCommentOnPermit(actor, permit) && canReadInternalComments(actor);
