import { actorCan, type Actor } from "../actor.ts";
import { withinScope } from "./scope.ts";

/** What the client rules need of a client. */
export interface ClientRecord {
  id: string;
  companyId: string;
}

// A client-user's client filter lists clients by id: a client is within it when its own id is.
const scopeOfClient = (c: ClientRecord) => ({ companyId: c.companyId, clientId: c.id });

/** The client admin (list and detail) is for those who manage clients. */
export const canListClients = (actor: Actor) => actorCan(actor, "clients.manage");

export const canViewClient = (actor: Actor, client: ClientRecord) =>
  actorCan(actor, "clients.manage") && withinScope(actor, scopeOfClient(client));

export const canCreateClient = (actor: Actor) => actorCan(actor, "clients.manage");

export const canEditClient = (actor: Actor, client: ClientRecord) =>
  actorCan(actor, "clients.manage") && withinScope(actor, scopeOfClient(client));

/** A client with projects is refused by the service (409), not here: that is a state, not a right. */
export const canDeleteClient = (actor: Actor, client: ClientRecord) =>
  actorCan(actor, "clients.manage") && withinScope(actor, scopeOfClient(client));

/** The `can` flags of a client. */
export function clientCan(actor: Actor, client: ClientRecord) {
  return { edit: canEditClient(actor, client), delete: canDeleteClient(actor, client) };
}
