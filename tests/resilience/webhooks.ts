/**
 * Issue 30, item 3: "a killed server resumes pending deliveries after restart (nothing lost,
 * duplicates only with the same id)". One server (WEBHOOKS_ALLOW_PRIVATE, a 200 ms poll) delivers to
 * a real receiver on 127.0.0.1 that answers its first requests and then hangs, so that when the
 * server is SIGKILLed some deliveries are delivered, some claimed and mid-attempt ('sending', the
 * receiver holding the request), the rest pending. A second process over the same database must
 * deliver every one of them: each webhook-id answered 2xx by the receiver, copies only of requests
 * it left unanswered before the kill, with the same webhook-id and body, every copy correctly signed.
 */
import { Webhook } from "standardwebhooks";
import { openDatabase } from "../../server/db/client.ts";
import { LEASE_MS } from "../../server/features/webhooks/dispatcher.ts";
import { factories } from "../../server/test-support/factories.ts";
import { startWebhookReceiver, type ReceivedHook } from "../../server/test-support/webhook-receiver.ts";
import { call, signIn } from "./lib/http.ts";
import { query } from "./lib/postgres.ts";
import type { Report } from "./lib/report.ts";
import { AppServer, type ServerOptions } from "./lib/server.ts";
import { onCleanup, sleep, waitFor } from "./lib/util.ts";

/** Events made through the API: permit updates (permit.updated), and 'Send Test Event'. */
const PERMITS = 20;
const UPDATES_PER_PERMIT = 5;
const TEST_EVENTS = 15;
/** The receiver answers this many requests 200, then hangs (until the restart). */
const ANSWERED_BEFORE_KILL = 30;

interface DeliveryRow {
  id: string;
  message_id: string;
  status: string;
  claimed_at: string | null;
  type: string;
  permit_id: string | null;
}

const deliveries = (url: string, companyId: string) =>
  query<DeliveryRow>(
    url,
    `select d.id, d.message_id, d.status, d.claimed_at::text, e.type, e.data->'permit'->>'id' as permit_id
     from webhook_deliveries d join webhook_events e on e.id = d.event_id
     where d.company_id = $1 order by d.created_at, d.id`,
    [companyId],
  );

const countBy = (rows: { status: string }[]) =>
  rows.reduce<Record<string, number>>((c, r) => ({ ...c, [r.status]: (c[r.status] ?? 0) + 1 }), {});

const idOf = (h: ReceivedHook) => h.headers["webhook-id"] ?? "";

async function fixture(databaseUrl: string) {
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  try {
    const make = factories(database.db);
    const company = await make.company({ name: "Webhooks Inc", timeZone: "UTC" });
    const admin = await make.user({
      role: "company-admin",
      companyId: company.id,
      email: "admin@webhooks.example",
    });
    const client = await make.client(company.id, "Webhooks Client");
    const project = await make.project({ companyId: company.id, clientId: client.id, name: "Hooks" });
    const permitIds: string[] = [];
    for (let i = 0; i < PERMITS; i++) {
      const p = await make.permit({
        companyId: company.id,
        projectId: project.id,
        permitName: `Hooked permit ${i}`,
        expirationDate: "2030-01-31",
      });
      permitIds.push(p.id);
    }
    return { companyId: company.id, projectId: project.id, admin, permitIds };
  } finally {
    await database.close();
  }
}

/**
 * `permit.updated` through the API: UPDATES_PER_PERMIT renames of every permit (PUT /api/permits/:id,
 * as faults.ts sends them; each records its event in the update's transaction), ten clients side by
 * side. Answers how many updates were acknowledged.
 */
async function updatePermits(base: string, cookie: string, projectId: string, permitIds: string[]) {
  let acked = 0;
  const queue = [...permitIds];
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        const got = await call<Record<string, unknown>>(base, "GET", `/api/permits/${id}`, { cookie });
        if (got.status !== 200) throw new Error(`GET permit ${id}: ${got.status}`);
        const p = got.body;
        const body = {
          permit_number: p.permit_number,
          record_type: p.record_type,
          agency: p.agency,
          is_required: true,
          project_id: projectId,
          expiration_date: p.expiration_date,
        };
        for (let round = 1; round <= UPDATES_PER_PERMIT; round++) {
          const res = await call(base, "PUT", `/api/permits/${id}`, {
            cookie,
            json: { ...body, permit_name: `${String(p.permit_name)} v${round}` },
          });
          if (res.status !== 200)
            throw new Error(`PUT permit ${id}: ${res.status} ${JSON.stringify(res.body)}`);
          acked++;
        }
      }
    }),
  );
  return acked;
}

export async function webhooksAfterKill(
  report: Report,
  opts: { databaseUrl: string; base: (name: string) => Promise<Omit<ServerOptions, "smtpUrl">> },
) {
  report.begin("Webhooks: SIGKILL with deliveries in flight, then a restart");
  const started = Date.now();
  const url = opts.databaseUrl;
  const f = await fixture(url);
  const receiver = await startWebhookReceiver();
  onCleanup(() => receiver.close());
  // The first requests are answered, every later one hangs: those deliveries stay mid-attempt.
  receiver.answerAll("hang");
  receiver.answerNext(...Array.from({ length: ANSWERED_BEFORE_KILL }, () => ({ status: 200, body: "ok" })));
  const server = new AppServer({
    ...(await opts.base("server-w")),
    logLevel: "info",
    env: { WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOK_POLL_MS: "200" },
  });
  onCleanup(() => server.stop(10_000).then(() => undefined));
  await server.start();

  const cookie = await signIn(server.url, f.admin.email, f.admin.password);
  const added = await call<{ webhook: { id: string }; secret: string }>(server.url, "POST", "/api/webhooks", {
    cookie,
    json: { url: receiver.url("/permitrack") },
  });
  if (added.status !== 201)
    throw new Error(`POST /api/webhooks: ${added.status} ${JSON.stringify(added.body)}`);
  const { webhook, secret } = added.body;

  // 100 events recorded; the dispatcher delivers the first 30, then a batch of its hangs.
  const recorded = await updatePermits(server.url, cookie, f.projectId, f.permitIds);
  await receiver.waitFor(ANSWERED_BEFORE_KILL + 1, 20_000);
  // 'Send Test Event' through the API, side by side: each records its event and attempts it in the
  // request, which the receiver now holds.
  const seenBefore = receiver.received.length;
  const tests = Array.from({ length: TEST_EVENTS }, () =>
    call(server.url, "POST", `/api/webhooks/${webhook.id}/test`, { cookie, timeoutMs: 20_000 }),
  );
  await receiver.waitFor(seenBefore + TEST_EVENTS, 10_000);
  await sleep(50);
  const killedAt = Date.now();
  await server.crash();
  const answers = await Promise.all(tests);
  const receivedBeforeKill = receiver.received.slice();
  const atKill = await deliveries(url, f.companyId);
  const [events] = await query<{ n: number }>(
    url,
    "select count(*)::int as n from webhook_events where company_id = $1",
    [f.companyId],
  );
  const countsAtKill = countBy(atKill);
  const sendingAtKill = atKill.filter((d) => d.status === "sending");
  const idsBeforeKill = new Set(receivedBeforeKill.map(idOf));
  const midAttempt = sendingAtKill.filter((d) => idsBeforeKill.has(d.message_id));
  const expected = PERMITS * UPDATES_PER_PERMIT + TEST_EVENTS;
  report.check(
    `${expected} events recorded before the kill, one delivery each (one endpoint)`,
    recorded === PERMITS * UPDATES_PER_PERMIT && events!.n === expected && atKill.length === expected,
    `${recorded} permit updates acknowledged, ${events!.n} events, ${atKill.length} deliveries`,
  );
  report.check(
    "the kill landed with deliveries delivered, pending and mid-attempt (claimed 'sending', the receiver holding the request)",
    (countsAtKill.delivered ?? 0) > 0 &&
      (countsAtKill.pending ?? 0) > 0 &&
      midAttempt.length > 0 &&
      answers.every((a) => a.status === 0),
    `${JSON.stringify(countsAtKill)}; ${midAttempt.length} of ${sendingAtKill.length} claimed had reached the receiver; ` +
      `the ${TEST_EVENTS} test-event requests saw ${[...new Set(answers.map((a) => a.status || "no answer"))].join(", ")}`,
  );

  // Restart over the same database; the receiver answers everything from now on.
  receiver.answerAll({ status: 200, body: "ok" });
  const restartedAt = receiver.received.length;
  await server.start();
  await waitFor(
    "the deliveries pending at the kill to be delivered by the new process",
    async () => {
      const now = await deliveries(url, f.companyId);
      return now.every((d) => d.status !== "pending") ? now : null;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  await sleep(600); // three polls more: a claim taken too early would show now
  const held = await deliveries(url, f.companyId);
  const sendingIds = new Set(sendingAtKill.map((d) => d.id));
  const stillHeld = held.filter(
    (d) =>
      sendingIds.has(d.id) &&
      d.status === "sending" &&
      d.claimed_at === sendingAtKill.find((s) => s.id === d.id)!.claimed_at,
  );
  const resentEarly = receiver.received
    .slice(restartedAt)
    .filter((h) => sendingAtKill.some((s) => s.message_id === idOf(h)));
  report.check(
    `the new process delivered the pending ones and left the dead one's claims alone within their lease (${LEASE_MS / 60_000} min)`,
    stillHeld.length === sendingAtKill.length && resentEarly.length === 0,
    `${stillHeld.length}/${sendingAtKill.length} claims still held, ${resentEarly.length} re-sent early`,
  );

  // The lease is 2 minutes; the suite does not wait for it: it moves the dead process's claims back
  // by the lease (and a second), which is what waiting would do, and nothing else. The point is
  // that the second process then takes them again by itself.
  const aged = await query(
    url,
    `update webhook_deliveries set claimed_at = claimed_at - make_interval(secs => $2::int)
     where company_id = $1 and status = 'sending' returning id`,
    [f.companyId, Math.ceil(LEASE_MS / 1000) + 1],
  );
  const final = await waitFor(
    "every delivery to be delivered after the restart",
    async () => {
      const now = await deliveries(url, f.companyId);
      return now.every((d) => d.status === "delivered") ? now : null;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  ).catch(async () => deliveries(url, f.companyId));
  await sleep(500); // a stray copy would arrive now

  // What the receiver saw, by webhook-id.
  const copies = new Map<string, ReceivedHook[]>();
  for (const h of receiver.received) copies.set(idOf(h), [...(copies.get(idOf(h)) ?? []), h]);
  const byMessage = new Map(final.map((d) => [d.message_id, d]));
  // Received and answered 2xx: the first requests before the kill, and every one after the restart
  // (the others were held unanswered until the dead process's connections closed).
  const answered = new Set(
    [...receiver.received.slice(0, ANSWERED_BEFORE_KILL), ...receiver.received.slice(restartedAt)].map(idOf),
  );
  const lost = final.filter((d) => !answered.has(d.message_id));
  const unknown = [...copies.keys()].filter((id) => !byMessage.has(id));
  const duplicated = [...copies].filter(([, hs]) => hs.length > 1);
  const extraCopies = duplicated.reduce((n, [, hs]) => n + hs.length - 1, 0);
  const bodiesDiffer = duplicated.filter(([, hs]) => new Set(hs.map((h) => h.body)).size > 1);
  const deliveredAtKill = new Set(atKill.filter((d) => d.status === "delivered").map((d) => d.message_id));
  const sentAgainAfterDelivered = duplicated.filter(([id]) => deliveredAtKill.has(id));
  // A copy is legitimate only of a request the receiver held unanswered before the kill (mid-attempt
  // at the kill, or timed out earlier and retried); and the new process sends each id once.
  const unanswered = new Set(receiver.received.slice(ANSWERED_BEFORE_KILL, restartedAt).map(idOf));
  const unwarranted = duplicated.filter(([id]) => !unanswered.has(id));
  const afterRestart = receiver.received.slice(restartedAt).map(idOf);
  const twiceByNew = afterRestart.length - new Set(afterRestart).size;
  const verifier = new Webhook(secret);
  let badSignature = 0;
  let wrongContent = 0;
  for (const h of receiver.received) {
    let payload: { type?: string; data?: { permit?: { id?: string } } };
    try {
      payload = verifier.verify(h.body, h.headers) as typeof payload;
    } catch {
      badSignature++;
      continue;
    }
    const row = byMessage.get(idOf(h));
    if (!row || payload.type !== row.type || (payload.data?.permit?.id ?? null) !== row.permit_id)
      wrongContent++;
  }
  const statuses = countBy(final);
  report.check(
    "after the restart every delivery is 'delivered'",
    final.length === expected && statuses.delivered === expected,
    `${JSON.stringify(statuses)}; ${aged.length} claims of the dead process taken again after their lease`,
  );
  report.check(
    "nothing lost: the receiver answered 2xx to the webhook-id of every event recorded before the kill, and saw no other",
    lost.length === 0 && unknown.length === 0,
    `${answered.size} webhook-ids answered 2xx (${copies.size} received) for ${final.length} deliveries; lost ${lost.length}, unknown ${unknown.length}`,
  );
  report.check(
    "duplicates only of requests left unanswered at the kill, with the same webhook-id and the same body",
    bodiesDiffer.length === 0 &&
      sentAgainAfterDelivered.length === 0 &&
      unwarranted.length === 0 &&
      twiceByNew === 0,
    `${duplicated.length} webhook-ids received twice or more (${extraCopies} extra copies), ${midAttempt.length} were mid-attempt; ` +
      `bodies differing ${bodiesDiffer.length}, re-sent after delivered ${sentAgainAfterDelivered.length}, of an answered request ${unwarranted.length}, twice by the new process ${twiceByNew}`,
  );
  report.check(
    "every copy, before and after the kill, verifies with the endpoint's secret (standardwebhooks) and carries its event",
    badSignature === 0 && wrongContent === 0,
    `${receiver.received.length} requests; bad signature ${badSignature}, wrong event ${wrongContent}`,
  );
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  report.note(
    `${expected} deliveries; the kill came ${killedAt - started} ms in; everything delivered ${seconds} s after the section began`,
  );
  report.fault(
    "SIGKILL with webhook deliveries in flight",
    `${countsAtKill.delivered ?? 0} delivered, ${countsAtKill.pending ?? 0} pending, ${sendingAtKill.length} claimed (${midAttempt.length} held by the receiver)`,
    `${lost.length} lost, ${extraCopies} identical re-sends (same webhook-id and body)`,
  );
  report.figures.webhooks = {
    deliveries: expected,
    atKill: countsAtKill,
    midAttempt: midAttempt.length,
    lost: lost.length,
    identicalResends: extraCopies,
    seconds,
  };
  report.figures.lost.webhooks += lost.length;
  await server.stop();
}
