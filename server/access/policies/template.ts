import { actorCan, type Actor } from "../actor.ts";
import { withinScope } from "./scope.ts";

/** What the template rules need of a template (the API's shape). */
export interface TemplateRecord {
  company_id: string;
}

const scopeOfTemplate = (t: TemplateRecord) => ({ companyId: t.company_id });

/** Templates are an admin screen: listing them needs templates.manage too. */
export const canListTemplates = (actor: Actor) => actorCan(actor, "templates.manage");

export const canCreateTemplate = (actor: Actor) => actorCan(actor, "templates.manage");

/** Editing covers the name, agency, status and active switch. */
export const canEditTemplate = (actor: Actor, template: TemplateRecord) =>
  actorCan(actor, "templates.manage") && withinScope(actor, scopeOfTemplate(template));

export const canDeleteTemplate = (actor: Actor, template: TemplateRecord) =>
  actorCan(actor, "templates.manage") && withinScope(actor, scopeOfTemplate(template));

/** The `can` flags of a template. */
export function templateCan(actor: Actor, template: TemplateRecord) {
  return { edit: canEditTemplate(actor, template), delete: canDeleteTemplate(actor, template) };
}
