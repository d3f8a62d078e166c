import { actorCan, type Actor } from "../actor.ts";
import { withinScope, type TenantRecord } from "./scope.ts";

// Issue 28: what the document reader read of an uploaded file (its text, the suggested values) is
// for the staff who edit permits. A client-user never sees a reading or a suggestion (403), even of
// a permit they can see; another company's reading, permit or request answers 404 (scoped reads).

/** Reading a file's text and suggestions (a permit's, a request's, a form's staged file). */
export const canReadDocumentReadings = (actor: Actor, record?: TenantRecord) =>
  actorCan(actor, "permits.edit") && (record === undefined || withinScope(actor, record));

/** Uploading a file on the new-permit form to have it read before the permit exists. */
export const canStageDocument = (actor: Actor) => actorCan(actor, "attachments.upload");

/** Accepting suggestions into a permit: the permit's normal edit (and the ledger's, the lifecycle's). */
export const canAcceptSuggestions = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "permits.edit") && withinScope(actor, permit);
