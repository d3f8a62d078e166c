import { actorCan, type Actor } from "../actor.ts";

/** CSV import (the template download, the dry run and the import) is an admin tool (spec section 6). */
export const canImportPermits = (actor: Actor) => actorCan(actor, "imports.run");
