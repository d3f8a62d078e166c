import { refuse, type Refusal } from "../../errors.ts";
import { actorCan, type Actor } from "../actor.ts";
import { withinScope, type TenantRecord } from "./scope.ts";

// Document requests to outside parties (issue 27). Who may ask, review and read the party's side is
// decided here; the link's party is not an Actor (it has no account): the token is its only right,
// and the feature's public-link code confines it to its one request.

/** Whoever sees the permit sees that documents were requested of it (a client-user: kind, state, dates). */
export const canViewRequests = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "permits.view") && withinScope(actor, permit);

/**
 * The party's name and e-mail, the link's dates, the message, the values it filled in and its files
 * are for staff: the roles that edit permits. A client-user gets only what ClientRequestViewSchema
 * names.
 */
export const canReadRequestDetails = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "permits.edit") && withinScope(actor, permit);

/** Requesting a document, approving, rejecting and revoking: the roles that may edit the permit. */
export const canManageRequests = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "permits.edit") && withinScope(actor, permit);

/** What review needs of a request. */
export interface ReviewableRequest extends TenantRecord {
  status: string;
}

export const NOT_AWAITING_REVIEW = "This request has no submission awaiting review.";
export const REQUEST_CLOSED = "This request is already approved or revoked.";

/** Why the actor may not approve or reject the request now (null: may): the right (403), then the state (409). */
export function reviewRefusal(actor: Actor, request: ReviewableRequest): Refusal | null {
  if (!canManageRequests(actor, request)) return refuse.forbidden();
  if (request.status !== "submitted") return refuse.conflict(NOT_AWAITING_REVIEW);
  return null;
}

/** Why the actor may not revoke the request's link (null: may). */
export function revokeRefusal(actor: Actor, request: ReviewableRequest): Refusal | null {
  if (!canManageRequests(actor, request)) return refuse.forbidden();
  if (request.status === "approved" || request.status === "revoked") return refuse.conflict(REQUEST_CLOSED);
  return null;
}

/** The `can` flags of a request as staff see it: exactly the checks its routes make. */
export const requestCan = (actor: Actor, request: ReviewableRequest) => ({
  review: !reviewRefusal(actor, request),
  revoke: !revokeRefusal(actor, request),
});

/**
 * The company-wide Requests page and the nav's count of requests awaiting review (issue 27): the
 * roles that review (staff of the company; a super-admin every company's). A client-user: 403.
 */
export const canListRequestQueue = (actor: Actor) => actorCan(actor, "permits.edit");
