import type { Db } from "../../db/client.ts";
import type { PermitRow } from "../permits/index.ts";
import { emitWebhookEvents } from "../webhooks/index.ts";

/**
 * Issue 30: a lifecycle step's webhook event, in the step's transaction, after its write (`p` is
 * the permit as the step left it): a renewal or an extension with the term it leads to, a close
 * with its final status.
 */
export async function emitLifecycleEvent(
  tx: Db,
  type: "permit.renewed" | "permit.extended" | "permit.closed",
  p: PermitRow,
): Promise<void> {
  const extra =
    type === "permit.closed"
      ? { final_status: p.finalStatus }
      : { term: { number: p.termNo, expiration_date: p.expirationDate } };
  await emitWebhookEvents(tx, p.companyId, type, [{ permitId: p.id, extra }]);
}
