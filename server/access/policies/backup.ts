import { actorCan, type Actor } from "../actor.ts";

/** The installation's backups hold every company's data: their state is the super-admin's (issue 26). */
export const canViewBackups = (actor: Actor) => actorCan(actor, "system.backups");
