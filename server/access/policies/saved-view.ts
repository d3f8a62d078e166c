import { actorCan, type Actor } from "../actor.ts";

/** What the saved-view rules need of a view: whose it is. */
export interface SavedViewRecord {
  userId: string;
}

/**
 * Saved views of the All Permits list belong to one user: whoever may read the list may keep
 * views of it, and only the owner ever sees or changes one (another user's view answers 404,
 * through the owner-scoped lookup, before these run).
 */
export const canListSavedViews = (actor: Actor) => actorCan(actor, "permits.view");

export const canCreateSavedView = (actor: Actor) => actorCan(actor, "permits.view");

export const canEditSavedView = (actor: Actor, view: SavedViewRecord) =>
  actorCan(actor, "permits.view") && view.userId === actor.userId;

export const canDeleteSavedView = (actor: Actor, view: SavedViewRecord) => canEditSavedView(actor, view);
