import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client.ts";
import { conflict } from "../../errors.ts";
import { WEBHOOK_TEST_EVENT } from "../../../shared/domain/webhooks.ts";
import { claimOne, deliver, type DispatchContext } from "./dispatcher.ts";
import { newMessageIdSql } from "./emit.ts";

/**
 * A person's deliveries (issue 30): 'Resend' sends a delivery again now, with its webhook-id, and
 * starts its retries over; 'Send Test Event' records a webhook.test event for one endpoint and sends
 * it now. Both answer once the attempt is made (at most 5 s), so the page can say how it went; an
 * endpoint disabled for failing may still be tested (a success does not enable it).
 */

export async function resendDelivery(ctx: DispatchContext, deliveryId: string): Promise<void> {
  const now = new Date();
  const row = await claimOne(ctx.db, deliveryId, now);
  if (!row) throw conflict("This delivery is being sent right now: try again in a moment");
  await deliver(ctx, row, now, { manual: true });
}

export async function sendTestEvent(
  ctx: DispatchContext,
  endpoint: { id: string; companyId: string },
  actorName: string,
): Promise<string> {
  const data = {
    message: `A test event sent by ${actorName} from the Webhooks page`,
    test: true,
  };
  const [made] = await queryRows<{ id: string }>(
    ctx.db,
    sql`with ev as (
          insert into webhook_events (company_id, type, data)
          values (${endpoint.companyId}, ${WEBHOOK_TEST_EVENT}, ${JSON.stringify(data)}::jsonb)
          returning id
        )
        insert into webhook_deliveries (company_id, endpoint_id, event_id, message_id, status, next_attempt_at)
        select ${endpoint.companyId}, ${endpoint.id}, ev.id, ${newMessageIdSql}, 'pending', now() + interval '1 hour'
        from ev
        returning id`,
  );
  await resendDelivery(ctx, made!.id);
  return made!.id;
}
