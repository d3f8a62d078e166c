import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { todayIn } from "../../shared/domain/dates.ts";
import { quiesce, reminderCompany } from "../test-support/reminder-fixtures.ts";
import { useTestContext } from "../test-support/harness.ts";
import { startScheduler } from "./scheduler.ts";

// REMINDER_HOUR 0: today's reminders are due whatever the hour the test runs at.
const t = useTestContext({ SCHEDULER: "on", REMINDER_HOUR: "0" });

describe("the scheduler", () => {
  it("catches up at start-up: records what is due and sends it (to the outbox without SMTP_URL)", async () => {
    const co = await reminderCompany(t);
    await co.permit(todayIn("UTC"), 7);
    const scheduler = startScheduler(t.app);
    await scheduler.stop(); // waits for the start-up run
    expect((await co.deliveries()).map((d) => d.status)).toEqual(["sent"]);
    const outbox = path.join(t.dataDir, "outbox");
    const mails = fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), "utf8"));
    expect(mails.some((m) => m.includes(`To: ${co.recipients[0]!.email}`))).toBe(true);
    await quiesce(t.db);
  });

  it("starts nothing when SCHEDULER is off", async () => {
    const co = await reminderCompany(t);
    await co.permit(todayIn("UTC"), 7);
    t.app.ctx.config.SCHEDULER = "off";
    await startScheduler(t.app).stop();
    t.app.ctx.config.SCHEDULER = "on";
    expect(await co.deliveries()).toEqual([]);
    await quiesce(t.db);
  });
});
