import type { Actor } from "../actor.ts";

/**
 * Everyone has a feed of what they can see. It outlives the session that made it, so a super-admin
 * viewing as someone must not leave a working feed of that user's permits behind.
 */
export const canManageCalendarFeed = (actor: Actor) => !actor.impersonatorId;

/**
 * A feed is read without a session, as its owner (`owner` is built from the token's user as a
 * session's Actor is): it answers only while that owner could sign in and see the same. Held at the
 * two-factor set-up gate (decision 0011), the owner sees nothing but enrolment, and neither does the
 * feed until they enrol; it answers as an unknown token does.
 */
export const canReadCalendarFeed = (owner: Actor) => !owner.twoFactorSetupRequired;
