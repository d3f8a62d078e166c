/**
 * Document requests answered by link (issue 27): staff ask an outside party for a document, the
 * party answers through a link that needs no account, staff approve (applied through the lifecycle,
 * the bond ledger and the attachments) or reject it. Its public face: the routes, and the sender of
 * the party's e-mails (the scheduler runs it; another kind, the due-date reminders, adds a composer
 * to request-mail.ts and enqueues rows with enqueueRequestDelivery).
 */
export { requestsRoutes } from "./requests.routes.ts";
export { requestQueueRoutes } from "./request-queue.routes.ts";
export { requestLinkRoutes } from "./request-link.routes.ts";
export {
  enqueueRequestDelivery,
  sendDueRequestDeliveries,
  type RequestDeliveryKind,
  type RequestSendReport,
} from "./request-deliveries.ts";
export { REQUEST_MAIL_COMPOSERS, requestLinkUrl, type RequestMailData } from "./request-mail.ts";
export { unsealLinkToken } from "./link-token.ts";
