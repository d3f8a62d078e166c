import { actorCan, type Actor } from "../actor.ts";
import { withinScope, type TenantRecord } from "./scope.ts";

/** Listing and downloading a permit's files goes with seeing the permit. */
export const canViewAttachments = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "permits.view") && withinScope(actor, permit);

export const canUploadAttachment = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "attachments.upload") && withinScope(actor, permit);
