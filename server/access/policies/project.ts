import { actorCan, type Actor } from "../actor.ts";
import { canCreatePermit } from "./permit.ts";
import { withinScope } from "./scope.ts";

/** What the project rules need of a project (the API's shape, which the project feature passes on). */
export interface ProjectRecord {
  company_id: string;
  client_id: string | null;
}

const scopeOfProject = (p: ProjectRecord) => ({ companyId: p.company_id, clientId: p.client_id });

/** Every role reads the projects it can see (a client-user only its clients'). */
export const canListProjects = (actor: Actor) => actorCan(actor, "permits.view");

export const canViewProject = (actor: Actor, project: ProjectRecord) =>
  actorCan(actor, "permits.view") && withinScope(actor, scopeOfProject(project));

export const canCreateProject = (actor: Actor) => actorCan(actor, "projects.manage");

/** Editing covers the project's fields and its status. */
export const canEditProject = (actor: Actor, project: ProjectRecord) =>
  actorCan(actor, "projects.manage") && withinScope(actor, scopeOfProject(project));

export const canDeleteProject = (actor: Actor, project: ProjectRecord) =>
  actorCan(actor, "projects.manage") && withinScope(actor, scopeOfProject(project));

/** The `can` flags of a project, as its routes check them. */
export function projectCan(actor: Actor, project: ProjectRecord) {
  return {
    edit: canEditProject(actor, project),
    delete: canDeleteProject(actor, project),
    createPermit: canCreatePermit(actor),
  };
}
