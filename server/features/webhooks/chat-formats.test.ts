import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestContext } from "../../test-support/harness.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../test-support/webhook-receiver.ts";
import { useWorld } from "../../test-support/world.ts";
import { sendDueWebhooks } from "./dispatcher.ts";
import { emitWebhookEvents } from "./emit.ts";
import { headline } from "./format.ts";
import { dispatchContext } from "./worker.ts";

/*
 * Issue 30, item 4: an endpoint may be a Slack incoming webhook or a Microsoft Teams Workflows
 * webhook: the same events as a short message (what happened, the permit or bond, its project, a
 * link to it), in each one's format, posted to a real receiver standing in for them.
 */

let hook: WebhookReceiver;
beforeAll(async () => {
  hook = await startWebhookReceiver();
});
afterAll(() => hook?.close());
const t = useTestContext({ WEBHOOKS_ALLOW_PRIVATE: "true", PUBLIC_URL: "https://permits.example.com" });
const w = useWorld(t, { permits: true });

async function deliverAs(
  format: "slack" | "teams",
  type: Parameters<typeof emitWebhookEvents>[2],
  extra = {},
) {
  await t.db.execute(sql`delete from webhook_endpoints`);
  hook.received.length = 0;
  const res = await w.admin.post("/api/webhooks", { url: hook.url(`/${format}`), format });
  expect(res.statusCode, res.body).toBe(201);
  await emitWebhookEvents(t.db, w.companyId, type, [{ permitId: w.permitId, extra }]);
  await sendDueWebhooks(dispatchContext(t.app));
  const [got] = await hook.waitFor(1);
  return JSON.parse(got!.body);
}

const permitRow = async () => {
  const rows = await t.db.execute(
    sql`select p.permit_number, p.permit_name, pr.name as project from permits p
        left join projects pr on pr.id = p.project_id where p.id = ${w.permitId}`,
  );
  return (
    rows as unknown as { rows: { permit_number: string; permit_name: string; project: string | null }[] }
  ).rows[0]!;
};

describe("Slack and Teams messages", () => {
  it("posts a Slack message: the headline, the permit linked, its project", async () => {
    const p = await permitRow();
    const body = await deliverAs("slack", "permit.expiring", { days_left: 7, threshold: 7 });
    expect(body.text).toBe(`Permit expiring in 7 days: ${p.permit_number} ${p.permit_name}`);
    const text: string = body.blocks[0].text.text;
    expect(body.blocks[0]).toMatchObject({ type: "section", text: { type: "mrkdwn" } });
    expect(text.split("\n")[0]).toBe("*Permit expiring in 7 days*");
    expect(text).toContain(`<https://permits.example.com/permits/${w.permitId}|`);
    if (p.project) expect(text).toContain(`*Project:* ${p.project}`);
  });

  it("posts a Teams Adaptive Card: the headline, the facts, an 'Open permit' button", async () => {
    const p = await permitRow();
    const body = await deliverAs("teams", "task.overdue", {
      task: { id: "x", title: "Erosion control inspection", due_on: "2026-11-20" },
    });
    expect(body.type).toBe("message");
    const [attachment] = body.attachments;
    expect(attachment.contentType).toBe("application/vnd.microsoft.card.adaptive");
    const card = attachment.content;
    expect(card).toMatchObject({ type: "AdaptiveCard", version: "1.4" });
    expect(card.body[0]).toMatchObject({
      type: "TextBlock",
      text: "Task overdue: Erosion control inspection (due Nov 20, 2026)",
    });
    expect(card.body[1].facts[0]).toEqual({ title: "Permit", value: `${p.permit_number} ${p.permit_name}` });
    expect(card.actions).toEqual([
      {
        type: "Action.OpenUrl",
        title: "Open permit",
        url: `https://permits.example.com/permits/${w.permitId}`,
      },
    ]);
  });

  it("words every event of the catalogue", () => {
    const permit = { id: "p", kind: "bond", number: "B-1", name: "Perf bond", status: "Active" } as never;
    const at = new Date();
    expect(
      headline({
        type: "bond.ledger_entry_added",
        occurredAt: at,
        data: { permit, entry: { kind: "rider", change: "25000.00", effective_date: "2026-11-01" } },
      }),
    ).toBe("Bond ledger entry added: Rider +25,000.00");
    expect(headline({ type: "bond.released", occurredAt: at, data: { permit } })).toBe("Bond released");
    expect(headline({ type: "permit.renewed", occurredAt: at, data: { permit } })).toBe("Bond renewed");
    expect(
      headline({
        type: "request.approved",
        occurredAt: at,
        data: { permit, request: { document: "Inspection Report" } },
      }),
    ).toBe("Request approved: Inspection Report");
    expect(headline({ type: "webhook.test", occurredAt: at, data: { message: "hi" } })).toBe(
      "Test event from Permitrack",
    );
  });
});
