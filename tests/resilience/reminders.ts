/**
 * Item 5, reminders: two servers sweep and send at the same moment over one database into one
 * SMTP server; every due reminder is delivered exactly once.
 */
import { startTestSmtp } from "../../server/test-support/test-smtp.ts";
import { reminderFixture, tally, waitAllSent } from "./lib/reminders.ts";
import type { Report } from "./lib/report.ts";
import { AppServer, type ServerOptions } from "./lib/server.ts";
import { onCleanup, sleep } from "./lib/util.ts";

interface RunLog {
  recorded: number;
  emailsSent: number;
  deliveriesSent: number;
}

/** The "reminders run" lines a server logged (JSON lines, LOG_LEVEL=info). */
function runsOf(server: AppServer): RunLog[] {
  return server.log
    .split("\n")
    .filter((l) => l.includes('"msg":"reminders run"'))
    .map((l) => JSON.parse(l) as RunLog);
}

export async function remindersOnTwoServers(
  report: Report,
  opts: { databaseUrl: string; base: (name: string) => Omit<ServerOptions, "smtpUrl"> },
) {
  report.begin("Two servers: both sweep and send reminders at the same moment");
  const fixture = await reminderFixture(opts.databaseUrl, {
    recipients: 120,
    daysLeft: [30, 7, 1],
    label: "two-servers",
  });
  const expected = fixture.recipients.length * fixture.permits;
  // Each SMTP exchange takes ~60 ms, so the send lasts seconds and the two servers' runs overlap.
  const smtp = await startTestSmtp({ beforeAccept: () => sleep(60).then(() => "accept" as const) });
  const servers = ["server-a", "server-b"].map(
    (name) =>
      new AppServer({
        ...opts.base(name),
        smtpUrl: smtp.url,
        scheduler: "on",
        logLevel: "info",
        env: { REMINDER_HOUR: "0" },
      }),
  );
  onCleanup(() => Promise.all(servers.map((s) => s.stop(10_000))).then(() => smtp.close()));
  try {
    // Started together: each runs its start-up sweep + send as soon as it listens.
    await Promise.all(servers.map((s) => s.start()));
    const counts = await waitAllSent(opts.databaseUrl, fixture, 90_000);
    await sleep(500); // anything still in flight would arrive now
    // A server writes its log lines in batches, at most a second late (server/http/log-stream.ts).
    for (let waited = 0; waited < 5000 && !servers.every((s) => runsOf(s).length > 0); waited += 100)
      await sleep(100);
    const t = tally(smtp.messages, fixture.recipients);
    const runs = servers.map(runsOf);
    const recorded = runs.map((r) => r.reduce((n, x) => n + x.recorded, 0));
    const sentBy = servers.map((s) => t.byClient[s.opts.name] ?? 0);
    const spans = servers.map((s) => {
      const at = smtp.messages.filter((m) => m.client === s.opts.name).map((m) => m.at);
      return at.length ? [Math.min(...at), Math.max(...at)] : [0, 0];
    });
    const overlapMs = Math.max(
      0,
      Math.min(spans[0]![1]!, spans[1]![1]!) - Math.max(spans[0]![0]!, spans[1]![0]!),
    );
    report.note(
      `${expected} reminders recorded (A ${recorded[0]}, B ${recorded[1]}), ${t.accepted} digests accepted (A ${sentBy[0]}, B ${sentBy[1]}); the two servers' sends overlapped for ${overlapMs} ms`,
    );
    const rows = counts.sent + counts.failed;
    report.check(
      "both servers swept and the unique key kept one row per reminder",
      recorded[0]! + recorded[1]! === rows && rows >= expected && runs.every((r) => r.length > 0),
      `recorded A ${recorded[0]} + B ${recorded[1]} = ${recorded[0]! + recorded[1]!}; ${rows} rows for ${expected} due reminders`,
    );
    report.check(
      "both servers sent at the same time (each sent a share, their sending overlapped)",
      sentBy.every((n) => n > 0) && overlapMs > 0,
      `A ${sentBy[0]}, B ${sentBy[1]}, overlap ${overlapMs} ms`,
    );
    report.check(
      "every recipient got exactly one digest (none lost, none twice)",
      t.lost.length === 0 &&
        t.duplicated.length === 0 &&
        t.identicalResends === 0 &&
        t.accepted === fixture.recipients.length,
      `${t.accepted} accepted for ${fixture.recipients.length} recipients; lost ${t.lost.length}, duplicated ${t.duplicated.length}, copies ${t.identicalResends}`,
    );
    report.check(
      "every delivery row is marked sent",
      counts.failed === 0 && counts.sent >= expected,
      JSON.stringify(counts),
    );
    report.figures.reminders = {
      twoServers: {
        recipients: fixture.recipients.length,
        reminders: expected,
        digests: t.accepted,
        sentBy,
        recorded,
        overlapMs,
      },
    };
    report.figures.lost.reminders += t.lost.length;
    report.figures.lost.duplicateReminders += t.duplicated.length;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await smtp.close();
  }
}
