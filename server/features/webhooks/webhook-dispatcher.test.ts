import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { useTestContext } from "../../test-support/harness.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../test-support/webhook-receiver.ts";
import { useWorld } from "../../test-support/world.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";

/*
 * Issue 30, item 3: the app's own dispatcher (WEBHOOK_DISPATCH=on, as in production): a permit
 * saved through the API reaches the receiver with nothing else called, woken by the response that
 * recorded the event (the poll is an hour here, so it cannot be the poll).
 */

let hook: WebhookReceiver;
beforeAll(async () => {
  hook = await startWebhookReceiver();
});
afterAll(() => hook?.close());
const t = useTestContext({
  WEBHOOKS_ALLOW_PRIVATE: "true",
  WEBHOOK_DISPATCH: "on",
  WEBHOOK_POLL_MS: "3600000",
});
const w = useWorld(t);

describe("the app's webhook dispatcher", () => {
  it("delivers a permit created through the API right after the response", async () => {
    const added = await w.admin.post("/api/webhooks", { url: hook.url(), events: ["permit.created"] });
    expect(added.statusCode, added.body).toBe(201);
    const project = await t.make.project({ companyId: w.companyId, clientId: w.seenClientId });
    const made = await w.admin.post("/api/permits", {
      permit_number: "DISPATCH-1",
      permit_name: "Grading Permit",
      record_type: "permit",
      agency: "City of Denver",
      project_id: project.id,
      issue_date: "2026-01-05",
      expiration_date: addDays(todayIn("UTC"), 90),
      is_required: true,
      archived: false,
    });
    expect(made.statusCode, made.body).toBe(201);
    const [got] = await hook.waitFor(1, 5_000);
    const payload = new Webhook(added.json().secret).verify(got!.body, got!.headers) as {
      type: string;
      data: { permit: { number: string } };
    };
    expect(payload).toMatchObject({ type: "permit.created", data: { permit: { number: "DISPATCH-1" } } });
  });
});
