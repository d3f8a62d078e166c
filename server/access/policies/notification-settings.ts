import { actorCan, choosesCompany, type Actor } from "../actor.ts";
import { withinScope } from "./scope.ts";

/** The notification settings screen, its delivery log and the test e-mail (spec section 6). */
export const canManageNotificationSettings = (actor: Actor) => actorCan(actor, "notifications.manage");

/**
 * Settings belong to a company: an actor that neither works across companies nor has one of its
 * own has none to manage.
 */
export const hasSettingsCompany = (actor: Actor) => choosesCompany(actor) || !!actor.companyId;

export const canEditNotificationSettings = (actor: Actor, company: { id: string }) =>
  canManageNotificationSettings(actor) && withinScope(actor, { companyId: company.id });

/** The `can` flags of a company's notification settings. */
export function notificationSettingsCan(actor: Actor, company: { id: string }) {
  const canEdit = canEditNotificationSettings(actor, company);
  return { edit: canEdit, sendTestEmail: canEdit };
}
