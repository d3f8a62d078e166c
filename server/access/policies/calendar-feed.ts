import type { Actor } from "../actor.ts";

/**
 * Everyone has a feed of what they can see. It outlives the session that made it, so a super-admin
 * viewing as someone must not leave a working feed of that user's permits behind.
 */
export const canManageCalendarFeed = (actor: Actor) => !actor.impersonatorId;
