import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packetDeliveries } from "../../db/schema.ts";
import { createTestContext, type TestContext } from "../../test-support/harness.ts";
import { startTestSmtp, type TestSmtp } from "../../test-support/test-smtp.ts";
import { buildWorld, type World } from "../../test-support/world.ts";
import { runMonthlyPackets } from "./packet-deliveries.ts";

// The monthly compliance packet e-mail (issue 30) on a real SMTP server: once per month and
// recipient, not again on a second sweep, a failed send retried.

let smtp: TestSmtp;
const t = {} as TestContext;
let w: World;
let projectId: string;
beforeAll(async () => {
  smtp = await startTestSmtp();
  Object.assign(t, await createTestContext({ SMTP_URL: smtp.url }));
  w = await buildWorld(t);
  const project = await t.make.project({
    companyId: w.companyId,
    clientId: w.seenClientId,
    name: "Pier Seven",
  });
  projectId = project.id;
  await t.make.permit({ companyId: w.companyId, projectId, permitNumber: "PS-100" });
});
afterAll(async () => {
  await t.close?.();
  await smtp?.close();
});

const run = (at: Date, sendOnly = false) =>
  runMonthlyPackets({
    db: t.db,
    mailer: t.app.ctx.mailer,
    storage: t.app.ctx.storage,
    log: t.app.log,
    clock: () => at,
    sendOnly,
  });
const to = (email: string) => smtp.messages.filter((m) => m.to.includes(email));

describe("monthly compliance packet", () => {
  it("only staff who manage projects choose the recipients", async () => {
    expect(
      (await w.user.put(`/api/projects/${projectId}/packet-recipients`, { emails: ["a@b.example"] }))
        .statusCode,
    ).toBe(403);
    expect(
      (await w.clientUser.put(`/api/projects/${projectId}/packet-recipients`, { emails: ["a@b.example"] }))
        .statusCode,
    ).toBe(403);
    expect(
      (await w.admin.put(`/api/projects/${projectId}/packet-recipients`, { emails: ["not-an-email"] }))
        .statusCode,
    ).toBe(400);
    const res = await w.admin.put(`/api/projects/${projectId}/packet-recipients`, {
      emails: ["Owner@Lender.example", "gc@builder.example", "owner@lender.example"],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().emails.sort()).toEqual(["gc@builder.example", "owner@lender.example"]);
  });

  it("sends each recipient the PDF once a month, not twice, and retries a failed send", async () => {
    const nov = new Date("2026-11-02T09:00:00Z");
    smtp.failNext(1);
    const first = await run(nov);
    expect(first.recorded).toBe(2);
    expect(first.sent).toBe(1);
    expect(first.retrying).toBe(1);
    // A second sweep the same month records nothing and sends nothing new before the retry is due.
    const again = await run(new Date(nov.getTime() + 60_000));
    expect(again).toMatchObject({ recorded: 0, sent: 0 });
    // The retry, once due.
    const retry = await run(new Date(nov.getTime() + 6 * 60_000), true);
    expect(retry.sent).toBe(1);
    for (const email of ["owner@lender.example", "gc@builder.example"]) {
      const mails = to(email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toContain("Compliance packet: Pier Seven");
      expect(mails[0]!.raw).toMatch(/Content-Type: application\/pdf;[\s\S]*?compliance-packet-pier-seven-/);
    }
    const rows = await t.db.select().from(packetDeliveries).where(eq(packetDeliveries.projectId, projectId));
    expect(rows.map((r) => [r.month, r.status]).sort()).toEqual([
      ["2026-11-01", "sent"],
      ["2026-11-01", "sent"],
    ]);
    // Still once for November on a later sweep; December gets its own.
    expect(await run(new Date("2026-11-20T09:00:00Z"))).toMatchObject({ recorded: 0, sent: 0 });
    expect(await run(new Date("2026-12-01T09:00:00Z"))).toMatchObject({ recorded: 2, sent: 2 });
    expect(to("owner@lender.example")).toHaveLength(2);
  });

  it("sends nothing to a recipient removed after the month's packet was recorded", async () => {
    const other = await t.make.project({
      companyId: w.companyId,
      clientId: w.seenClientId,
      name: "Quay Nine",
    });
    const set = (emails: string[]) => w.admin.put(`/api/projects/${other.id}/packet-recipients`, { emails });
    expect((await set(["stays@lender.example", "goes@lender.example"])).statusCode).toBe(200);
    smtp.failAll(true);
    const jan = new Date("2027-01-04T09:00:00Z");
    // Pier Seven's two recipients and Quay Nine's two: none sent while the SMTP server refuses.
    expect(await run(jan)).toMatchObject({ recorded: 4, sent: 0, retrying: 4 });
    smtp.failAll(false);
    expect((await set(["stays@lender.example"])).statusCode).toBe(200);
    const retry = await run(new Date(jan.getTime() + 6 * 60_000), true);
    expect(retry).toMatchObject({ sent: 3, cancelled: 1 });
    expect(to("goes@lender.example")).toHaveLength(0);
    expect(to("stays@lender.example").map((m) => m.subject)).toEqual([expect.stringContaining("Quay Nine")]);
    const [gone] = await t.db
      .select()
      .from(packetDeliveries)
      .where(eq(packetDeliveries.recipientEmail, "goes@lender.example"));
    expect(gone).toMatchObject({ status: "cancelled", lastError: "The recipient was removed" });
  });
});
