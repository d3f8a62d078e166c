import { actorCan, type Actor } from "../../access/actor.ts";
import type { PermitCan } from "../../../shared/schemas/permits.ts";

/**
 * What the actor may do with a permit it can see. Visibility (company, client list) is the
 * scoped query's job; within it, spec section 6 depends on the role alone.
 */
export function permitCan(actor: Actor): PermitCan {
  return {
    edit: actorCan(actor, "permits.edit"),
    delete: actorCan(actor, "permits.delete"),
    comment: actorCan(actor, "comments.create"),
    upload: actorCan(actor, "attachments.upload"),
    viewInternalComments: actorCan(actor, "comments.viewInternal"),
  };
}
