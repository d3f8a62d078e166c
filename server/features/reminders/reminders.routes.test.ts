import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import { reminderDeliveries } from "../../db/schema.ts";
import { chooseTarget, parseCliArgs, runOnServer } from "../../jobs/reminders-cli.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { insertRequest, quiesce, reminderCompany } from "../../test-support/reminder-fixtures.ts";
import { CONTROL_TOKEN_HEADER } from "../../../shared/domain/constants.ts";
import { formatRunReport } from "./reminders.service.ts";

// No SMTP_URL: the mailer writes .eml files under DATA_DIR/outbox.
const t = useTestContext({ REMINDER_HOUR: "0" });

describe("GET /api/permits/:id/reminders", () => {
  async function permitWithLog() {
    const co = await reminderCompany(t, { recipients: 2 });
    const client = await t.make.client(co.company.id);
    const permit = await co.permit("2040-01-01", 7, { clientId: client.id });
    const [a, b] = co.recipients;
    await t.db.insert(reminderDeliveries).values([
      {
        companyId: co.company.id,
        permitId: permit.id,
        threshold: 30,
        expirationDate: "2040-01-08",
        dueDate: "2039-12-09",
        recipientUserId: a!.id,
        recipientEmail: a!.email,
        status: "sent",
        sentAt: new Date("2039-12-09T07:00:03Z"),
        createdAt: new Date("2039-12-09T07:00:00Z"),
      },
      {
        companyId: co.company.id,
        permitId: permit.id,
        threshold: 7,
        expirationDate: "2040-01-08",
        dueDate: "2040-01-01",
        recipientUserId: b!.id,
        recipientEmail: b!.email,
        status: "failed",
        lastError: "550 mailbox unavailable",
        createdAt: new Date("2040-01-01T07:00:00Z"),
      },
    ]);
    return { ...co, client, permit };
  }

  it("requires sign-in", async () => {
    const { permit } = await permitWithLog();
    expect((await t.anonymous.get(`/api/permits/${permit.id}/reminders`)).statusCode).toBe(401);
  });

  it("lists the permit's deliveries newest first for staff", async () => {
    const { permit, recipients, company } = await permitWithLog();
    const staff = await t.make.user({ role: "company-user", companyId: company.id });
    for (const user of [recipients[0]!, staff, await t.make.user({ role: "super-admin" })]) {
      const res = await (await t.signIn(user)).get(`/api/permits/${permit.id}/reminders`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        deliveries: [
          {
            id: expect.any(String),
            kind: "reminder",
            threshold: 7,
            recipientEmail: recipients[1]!.email,
            status: "failed",
            sentAt: null,
            createdAt: "2040-01-01T07:00:00.000Z",
            lastError: "550 mailbox unavailable",
          },
          {
            id: expect.any(String),
            kind: "reminder",
            threshold: 30,
            recipientEmail: recipients[0]!.email,
            status: "sent",
            sentAt: "2039-12-09T07:00:03.000Z",
            createdAt: "2039-12-09T07:00:00.000Z",
            lastError: null,
          },
        ],
        renewalPendingUntil: null,
      });
    }
  });

  it("says until when 'Renewal Pending' pauses the permit's reminders (issue 27), none without a log", async () => {
    const co = await reminderCompany(t);
    const permit = await co.permit("2040-01-01", 7);
    const admin = await t.signIn(co.recipients[0]!);
    const read = async () => (await admin.get(`/api/permits/${permit.id}/reminders`)).json();
    expect(await read()).toEqual({ deliveries: [], renewalPendingUntil: null });
    const submittedAt = new Date(Date.now() - 3 * 86_400_000);
    await insertRequest(t.db, permit, { status: "submitted", submittedAt });
    // An older submission, past its 14 days, pauses nothing.
    await insertRequest(t.db, permit, {
      status: "submitted",
      submittedAt: new Date(Date.now() - 20 * 86_400_000),
    });
    expect(await read()).toEqual({
      deliveries: [],
      renewalPendingUntil: new Date(submittedAt.getTime() + 14 * 86_400_000).toISOString(),
    });
  });

  it("answers 404 for another company's permit and a missing one, and 403 to a client-user (staff addresses)", async () => {
    const { permit, client, company } = await permitWithLog();
    const other = await t.make.company();
    const outsider = await t.signIn(await t.make.user({ role: "company-admin", companyId: other.id }));
    expect((await outsider.get(`/api/permits/${permit.id}/reminders`)).statusCode).toBe(404);
    const own = await t.signIn(await t.make.user({ role: "company-admin", companyId: company.id }));
    expect((await own.get(`/api/permits/${t.make.uuid()}/reminders`)).statusCode).toBe(404);
    expect((await own.get(`/api/permits/not-an-id/reminders`)).statusCode).toBe(400);

    const clientUser = await t.signIn(
      await t.make.user({ role: "client-user", companyId: company.id, clientIds: [client.id] }),
    );
    const res = await clientUser.get(`/api/permits/${permit.id}/reminders`);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("FORBIDDEN");
    const blind = await t.signIn(
      await t.make.user({ role: "client-user", companyId: company.id, clientIds: [] }),
    );
    expect((await blind.get(`/api/permits/${permit.id}/reminders`)).statusCode).toBe(404);
    expect(
      (await (await t.signIn((await permitWithLog()).recipients[0]!)).get("/api/me")).json().capabilities,
    ).toContain("reminders.view");
  });
});

describe("POST /api/internal/reminders/run (what `npm run reminders` calls on a running server)", () => {
  const run = (headers: Record<string, string>, body: unknown = {}) =>
    t.anonymous.request({
      method: "POST",
      url: "/api/internal/reminders/run",
      headers,
      payload: body as object,
    });

  it("is a 404 without the control token, with a wrong one, or before the server has one", async () => {
    t.app.ctx.controlToken = undefined;
    expect((await run({ [CONTROL_TOKEN_HEADER]: "" })).statusCode).toBe(404);
    t.app.ctx.controlToken = "s3cret-control-token";
    expect((await run({})).statusCode).toBe(404);
    expect((await run({ [CONTROL_TOKEN_HEADER]: "s3cret-control-tokeN" })).statusCode).toBe(404);
    expect((await run({ [CONTROL_TOKEN_HEADER]: "s3cret" })).statusCode).toBe(404);
    // the CSRF header is still required on a state-changing /api call
    const noCsrf = await t.app.inject({
      method: "POST",
      url: "/api/internal/reminders/run",
      headers: { [CONTROL_TOKEN_HEADER]: "s3cret-control-token" },
      payload: {},
    });
    expect(noCsrf.statusCode).toBe(403);
  });

  it("runs with the token: a dry run writes nothing, a real run records and sends to the outbox", async () => {
    t.app.ctx.controlToken = "s3cret-control-token";
    const today = todayIn("UTC");
    const co = await reminderCompany(t);
    const permit = await co.permit(today, 7, { permitName: "Right-of-Way Permit" });
    const auth = { [CONTROL_TOKEN_HEADER]: "s3cret-control-token" };

    const dry = await run(auth, { dryRun: true });
    expect(dry.statusCode).toBe(200);
    const mine = dry
      .json()
      .wouldSend.find((d: { recipientEmail: string }) => d.recipientEmail === co.recipients[0]!.email);
    expect(mine).toMatchObject({
      dueDate: today,
      items: [{ permitId: permit.id, threshold: 7, daysLeft: 7 }],
    });
    expect(await co.deliveries()).toEqual([]);
    expect(formatRunReport(dry.json())).toContain(
      `Right-of-Way Permit (${permit.permitNumber})  expires ${addDays(today, 7)}, 7 day(s) left`,
    );
    const lines = formatRunReport({
      ...dry.json(),
      wouldSend: [
        {
          recipientEmail: "admin@example.com",
          companyName: "Acme",
          dueDate: today,
          items: [
            { ...mine.items[0], kind: "escalation" },
            { ...mine.items[0], kind: "overdue", threshold: 0, daysLeft: -3 },
          ],
        },
      ],
    });
    expect(lines).toContain(
      `Escalation  Right-of-Way Permit (${permit.permitNumber})  due ${addDays(today, 7)}`,
    );
    expect(lines).toContain(
      `Overdue  Right-of-Way Permit (${permit.permitNumber})  expired ${addDays(today, 7)}, 3 day(s) ago`,
    );

    const real = await run(auth, {});
    expect(real.json()).toMatchObject({ dryRun: false, recorded: 1, emailsSent: 1, deliveriesSent: 1 });
    expect((await co.deliveries())[0]).toMatchObject({ status: "sent" });
    expect((await run(auth, { date: "not-a-date" })).statusCode).toBe(400);
    await quiesce(t.db);
  });
});

describe("npm run reminders: where it runs", () => {
  it("opens PostgreSQL itself, asks a live server holding the embedded database, else opens the directory", () => {
    expect(
      chooseTarget({ DATABASE_URL: "postgres://db/app" }, { pid: 1, port: 3000, controlToken: "x" }),
    ).toEqual({ kind: "postgres" });
    expect(
      chooseTarget({ DATABASE_URL: undefined }, { pid: 1, port: 3000, host: "0.0.0.0", controlToken: "tok" }),
    ).toEqual({
      kind: "server",
      url: "http://127.0.0.1:3000/api/internal/reminders/run",
      base: "http://127.0.0.1:3000",
      token: "tok",
    });
    expect(
      chooseTarget({ DATABASE_URL: undefined }, { pid: 1, port: 4000, host: "::1", controlToken: "tok" }),
    ).toMatchObject({
      url: "http://[::1]:4000/api/internal/reminders/run",
    });
    // a process holding the lock that is not a listening server (seed, migrate): no port, no token
    expect(chooseTarget({ DATABASE_URL: undefined }, { pid: 1 })).toEqual({ kind: "embedded" });
    expect(chooseTarget({ DATABASE_URL: undefined }, null)).toEqual({ kind: "embedded" });
  });

  it("parses its options", () => {
    expect(parseCliArgs([])).toEqual({ dryRun: false });
    expect(parseCliArgs(["--dry-run", "--date", "2026-03-01"])).toEqual({ dryRun: true, date: "2026-03-01" });
    expect(parseCliArgs(["--now"])).toEqual({ dryRun: false });
    expect(() => parseCliArgs(["--date", "2026-02-30"])).toThrow(/YYYY-MM-DD/);
    expect(() => parseCliArgs(["--bogus"])).toThrow();
  });

  it("talks to a listening server over HTTP with the token from the lock file", async () => {
    t.app.ctx.controlToken = "lock-file-token";
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const target = chooseTarget(
      { DATABASE_URL: undefined },
      { pid: process.pid, port, host: "127.0.0.1", controlToken: "lock-file-token" },
    );
    if (target.kind !== "server") throw new Error("expected the server target");
    const report = await runOnServer(target, { dryRun: true, date: "2041-01-01" });
    expect(report.dryRun).toBe(true);
    await expect(runOnServer({ ...target, token: "wrong" }, { dryRun: true })).rejects.toThrow(
      /refused the reminders run \(404\)/,
    );
  });
});
