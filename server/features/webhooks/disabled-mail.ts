import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client.ts";
import type { DispatchContext } from "./dispatcher.ts";

/**
 * An endpoint was just disabled for failing every delivery for 24 hours: each active company-admin
 * of its company hears of it, with the last error and where to turn it on again.
 */
export async function mailDisabledEndpoint(ctx: DispatchContext, endpointId: string): Promise<number> {
  const rows = await queryRows<{
    email: string;
    url: string;
    reason: string | null;
    last_error: string | null;
  }>(
    ctx.db,
    sql`select u.email, w.url, w.disabled_reason as reason,
               (select coalesce(a.error, 'HTTP ' || a.status_code) from webhook_attempts a
                where a.endpoint_id = w.id order by a.attempted_at desc limit 1) as last_error
        from webhook_endpoints w
        join users u on u.company_id = w.company_id and u.role = 'company-admin' and not u.banned
        where w.id = ${endpointId}`,
  );
  for (const r of rows) {
    await ctx.mailer.send({
      to: r.email,
      subject: `Webhook disabled: ${r.url}`,
      text:
        `Permitrack disabled the webhook ${r.url}: ${r.reason ?? "every delivery failed"}.\n` +
        (r.last_error ? `The last attempt: ${r.last_error}.\n` : "") +
        `\nEvents are no longer sent to it. Once the receiver works again, enable it on the Webhooks page:\n` +
        `${ctx.publicUrl}/admin/webhooks\n\nDeliveries not yet sent are kept and go out once it is enabled.\n`,
    });
  }
  return rows.length;
}
