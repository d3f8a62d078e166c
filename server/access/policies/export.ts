import { actorCan, choosesCompany, type Actor } from "../actor.ts";

/** An export is the list's current view: whoever sees the list may export it. */
export const canExportPermits = (actor: Actor) => actorCan(actor, "permits.view");

/** The Company column is only for an actor whose list spans companies, as on screen. */
export const exportsCompanyColumn = (actor: Actor) => choosesCompany(actor);

/** Staff e-mail addresses (the responsible person's) go to staff only, never to a client-user. */
export const exportsStaffEmails = (actor: Actor) => actorCan(actor, "reminders.view");
