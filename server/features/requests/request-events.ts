import type { Db } from "../../db/client.ts";
import { documentLabel, type DocumentKind } from "../../../shared/domain/document-requests.ts";
import { emitWebhookEvents } from "../webhooks/index.ts";
import type { RequestRow } from "./request-view.ts";

/**
 * Issue 30: a document request's webhook event, in the transaction of its change, about the
 * request's permit in `companyId` (the permit's company). The request as it now is: never its
 * link, token, message or the party's name and e-mail address.
 */
export async function emitRequestEvent(
  tx: Db,
  companyId: string,
  type: "request.submitted" | "request.approved" | "request.rejected",
  r: RequestRow,
): Promise<void> {
  const request = {
    id: r.id,
    status: r.status,
    document: documentLabel(r.documentKind as DocumentKind, r.title),
    due_date: r.dueDate,
  };
  await emitWebhookEvents(tx, companyId, type, [{ permitId: r.permitId, extra: { request } }]);
}
