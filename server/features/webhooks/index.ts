/**
 * Webhooks (issue 30, items 3 and 4; decision 0035). Other features record events with
 * emitWebhookEvents() in the transaction of their change; this feature imports no other feature
 * but the clients' (a company's existence), so any other may import it.
 */
export { emitWebhookEvents, type WebhookEventItem } from "./emit.ts";
export { sendDueWebhooks, type DispatchContext } from "./dispatcher.ts";
export { webhooksRoutes } from "./webhooks.routes.ts";
export { dispatchContext, startWebhookDispatcher } from "./worker.ts";
