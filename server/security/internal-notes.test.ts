import { randomUUID } from "node:crypto";
import type { InjectOptions } from "fastify";
import type { Response as InjectResponse } from "light-my-request";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userNotifications } from "../db/schema.ts";
import { signAcknowledgeToken, runReminders } from "../features/reminders/index.ts";
import { createTestContext, type TestContext } from "../test-support/harness.ts";
import { requestHelpers } from "../test-support/document-requests.ts";
import { multipart } from "../test-support/multipart.ts";
import { startTestSmtp, type TestSmtp } from "../test-support/test-smtp.ts";
import {
  callerFor,
  mergeCookies,
  recordRoutes,
  scannableText,
  type Caller,
  type RouteKey,
} from "../test-support/security.ts";
import { addDays, todayIn } from "../../shared/domain/dates.ts";

/*
 * Issue 25, item 4: what clients read. A permit and a bond of the client-user's client carry an
 * internal renewal note, fee, extension reason and inspection note beside shown ones, all written
 * through the routes as staff write them. Then every route of the app's route table is called by
 * the client-user (and by a super-admin impersonating it): no answer may hold an internal one in
 * its bytes (an Excel answer read cell by cell), while the lifecycle and the audit trail hold the
 * shown ones. Staff get the internal ones from the same answers. The reminders are sent and no
 * e-mail to the client-user holds them either. A route this table does not know fails the test,
 * so a new route is looked at before it can carry an internal note to a client.
 */

const recorder = recordRoutes();
let smtp: TestSmtp;
const t = {} as TestContext;

let n = 0;
const marker = (what: string) => `${what}-${randomUUID().slice(0, 8)}-${++n}`;

/** What only staff may read; each fee also as a list shows it (thousands separated). */
const INTERNAL = {
  renewalNote: marker("INTERNAL-RENEWAL-NOTE"),
  fee: "98765.43",
  extensionReason: marker("INTERNAL-EXTENSION-REASON"),
  inspectionNote: marker("INTERNAL-INSPECTION-NOTE"),
  bondNote: marker("INTERNAL-BOND-NOTE"),
  bondFee: "86420.17",
  bondReason: marker("INTERNAL-BOND-REASON"),
  // Issue 29: a completed task's note and its evidence file's name are staff's working record.
  taskNote: marker("INTERNAL-TASK-NOTE"),
  evidenceName: `${marker("INTERNAL-EVIDENCE")}.txt`,
};
const INTERNAL_TEXT = [...Object.values(INTERNAL), "98,765.43", "86,420.17"];
/** What the client-users of the permit read (the switch left off; the fee's turned off). */
const SHOWN = {
  renewalNote: marker("SHOWN-RENEWAL-NOTE"),
  fee: "1357.91",
  extensionReason: marker("SHOWN-EXTENSION-REASON"),
  inspectionNote: marker("SHOWN-INSPECTION-NOTE"),
  bondNote: marker("SHOWN-BOND-NOTE"),
};

type Viewer = "CL" | "imp" | "CA" | "CU" | "SA";
const CLIENT_VIEWERS: Viewer[] = ["CL", "imp"];
const STAFF: Viewer[] = ["CA", "CU", "SA"];

interface World {
  companyId: string;
  permitId: string;
  bondId: string;
  attachmentId: string;
  projectId: string;
  clientId: string;
  clientUserId: string;
  clientUserEmail: string;
  callers: Record<Viewer, Caller>;
  /** A document request on the permit (issue 27): its id and its link's token. */
  requestId: string;
  requestToken: string;
  /** Issue 30: a status link of the project (its token). */
  statusToken: string;
  /** Issue 29: a condition of the permit, its open task, and a task completed with a note and evidence. */
  conditionId: string;
  openTaskId: string;
  doneTaskId: string;
  /** Each viewer's own calendar feed (the impersonator reads the client-user's). */
  feeds: Partial<Record<Viewer, string>>;
}
const w = {} as World;

beforeAll(async () => {
  smtp = await startTestSmtp();
  Object.assign(
    t,
    await createTestContext({
      SMTP_URL: smtp.url,
      SIGNIN_IP_LIMIT: "1000000",
      SIGNIN_ACCOUNT_LIMIT: "1000000",
      API_RATE_LIMIT: "1000000",
    }),
  );
  await buildWorld();
}, 120_000);
afterAll(async () => {
  await t.close?.();
  await smtp?.close();
});

async function ok(res: InjectResponse, what: string) {
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown>;
}

async function buildWorld() {
  const today = todayIn("UTC");
  const company = await t.make.company({ name: "Acme Builders", timeZone: "UTC" });
  w.companyId = company.id;
  const client = await t.make.client(company.id, "Seen Client");
  const project = await t.make.project({ companyId: company.id, clientId: client.id, name: "Harbour Works" });
  w.projectId = project.id;
  w.clientId = client.id;
  const person = (role: "company-admin" | "company-user" | "client-user" | "super-admin") =>
    t.make.user({
      role,
      companyId: role === "super-admin" ? null : company.id,
      ...(role === "client-user" ? { clientIds: [client.id] } : {}),
    });
  const people = {
    CA: await person("company-admin"),
    CU: await person("company-user"),
    CL: await person("client-user"),
    SA: await person("super-admin"),
    SA2: await person("super-admin"),
  };
  w.clientUserId = people.CL.id;
  w.clientUserEmail = people.CL.email;
  const caller = async (user: { email: string; password: string }) =>
    callerFor(t.app, (await t.signIn(user)).cookie);
  const impersonator = await caller(people.SA2);
  const imp = await impersonator.request({
    method: "POST",
    url: "/api/impersonation",
    payload: { userId: people.CL.id },
  });
  await ok(imp, "impersonation");
  w.callers = {
    CA: await caller(people.CA),
    CU: await caller(people.CU),
    CL: await caller(people.CL),
    SA: await caller(people.SA),
    imp: callerFor(t.app, mergeCookies(impersonator.cookie, imp)),
  };
  // Staff receive the reminders (the e-mails are checked below); the client-user cannot.
  for (const u of [people.CA, people.CU])
    await t.db.insert(userNotifications).values({ userId: u.id, companyId: company.id });

  const permit = await t.make.permit({
    companyId: company.id,
    projectId: project.id,
    permitNumber: "BP-2026-001",
    permitName: "Harbour Works Building Permit",
    agency: "City Building Department",
    expirationDate: addDays(today, 20),
    renewalLeadDays: 30,
  });
  const bond = await t.make.permit({
    companyId: company.id,
    projectId: project.id,
    permitNumber: "BND-77",
    permitName: "Harbour Works Performance Bond",
    recordType: "bond",
    guaranteeType: "Performance",
    bondAmount: "250000.00",
    expirationDate: addDays(today, 25),
  });
  w.permitId = permit.id;
  w.bondId = bond.id;

  // Every note through its route, as staff write them.
  const CA = w.callers.CA;
  const post = async (url: string, payload: object) =>
    ok(await CA.request({ method: "POST", url, payload }), url);
  const steps = (id: string) => `/api/permits/${id}`;
  await post(`${steps(permit.id)}/renewals`, {
    new_expiration_date: addDays(today, 100),
    renewal_fee: INTERNAL.fee,
    note: INTERNAL.renewalNote,
    note_internal: true,
  });
  await post(`${steps(permit.id)}/renewals`, {
    new_expiration_date: addDays(today, 200),
    renewal_fee: SHOWN.fee,
    renewal_fee_internal: false,
    note: SHOWN.renewalNote,
  });
  await post(`${steps(permit.id)}/extensions`, {
    new_expiration_date: addDays(today, 210),
    reason: INTERNAL.extensionReason,
    reason_internal: true,
  });
  await post(`${steps(permit.id)}/extensions`, {
    new_expiration_date: addDays(today, 220),
    reason: SHOWN.extensionReason,
  });
  await post(`${steps(permit.id)}/inspections`, {
    inspection_type: "Footing",
    date: today,
    result: "Failed",
    notes: INTERNAL.inspectionNote,
    notes_internal: true,
  });
  await post(`${steps(permit.id)}/inspections`, {
    inspection_type: "Framing",
    date: today,
    result: "Partial",
    notes: SHOWN.inspectionNote,
  });
  await post(`${steps(bond.id)}/renewals`, {
    new_expiration_date: addDays(today, 400),
    renewal_fee: INTERNAL.bondFee,
    note: INTERNAL.bondNote,
    note_internal: true,
  });
  await post(`${steps(bond.id)}/extensions`, {
    new_expiration_date: addDays(today, 420),
    reason: INTERNAL.bondReason,
    reason_internal: true,
  });
  await post(`${steps(bond.id)}/renewals`, {
    new_expiration_date: addDays(today, 800),
    note: SHOWN.bondNote,
  });
  await post(`${steps(permit.id)}/comments`, { text: "Shown comment", isInternal: false });
  const uploaded = await ok(
    await CA.request({
      method: "POST",
      url: `${steps(permit.id)}/attachments`,
      ...multipart([{ name: "file", filename: "renewal.txt", contentType: "text/plain", content: "ok" }]),
    }),
    "attachment",
  );
  w.attachmentId = (uploaded.attachment as { id: string }).id;
  const asked = await post(`${steps(permit.id)}/requests`, {
    name: "Jane Roe",
    email: "jane.roe@acme-surety.example",
    documentKind: "renewed_permit",
    fields: ["new_expiration_date"],
  });
  w.requestId = (asked.request as { id: string }).id;
  w.requestToken = await requestHelpers(t).tokenOf(w.requestId);
  // Issue 30: a status link of the project, read without sign-in like the packet.
  const shared = await post(`/api/projects/${w.projectId}/status-links`, { expires_in_days: 30 });
  w.statusToken = String(shared.url).split("/status/")[1]!;

  // Issue 29: a condition with an open task, and one whose task staff completed with an internal
  // note and an evidence file (its name a marker too).
  const condition = async (title: string) => {
    const made = await post(`${steps(permit.id)}/conditions`, {
      title,
      schedule: "once",
      dueDate: addDays(today, 10),
      evidence: "file",
    });
    return { id: made.id as string, taskId: (made.tasks as { id: string }[])[0]!.id };
  };
  const pending = await condition("Keep the permit card posted");
  const done = await condition("Photograph the silt fence");
  w.conditionId = pending.id;
  w.openTaskId = pending.taskId;
  w.doneTaskId = done.taskId;
  await ok(
    await CA.request({
      method: "POST",
      url: `/api/tasks/${done.taskId}/complete`,
      ...multipart([
        { name: "note", content: INTERNAL.taskNote },
        { name: "file", filename: INTERNAL.evidenceName, contentType: "text/plain", content: "fence ok" },
      ]),
    }),
    "task completed",
  );

  w.feeds = {};
  for (const v of ["CL", ...STAFF] as Viewer[]) {
    const feed = await ok(
      await w.callers[v].request({ method: "POST", url: "/api/me/calendar-token" }),
      `${v} calendar token`,
    );
    w.feeds[v] = new URL(String(feed.url)).pathname;
  }
  w.feeds.imp = w.feeds.CL;
}

// ---------------------------------------------------------------------------------------------
// Every route, and what is asked of it

/** The requests one viewer makes of a route. */
type Requests = (v: Viewer) => InjectOptions[];
const get =
  (...paths: ((v: Viewer) => string)[]): Requests =>
  (v) =>
    paths.map((p) => ({ method: "GET", url: p(v) }));
const at = (path: string) => () => path;
const permit =
  (tail = "") =>
  () =>
    `/api/permits/${w.permitId}${tail}`;
const bond =
  (tail = "") =>
  () =>
    `/api/permits/${w.bondId}${tail}`;
const ackToken = () =>
  signAcknowledgeToken(t.app.ctx.links, {
    permitId: w.permitId,
    recipientUserId: w.clientUserId,
    termNo: 3,
    dueOn: "2030-12-31",
  });

/**
 * A write, sent by a client-user of its own (its session may end), with the ids of the permit and
 * an empty body unless given: the answer (a refusal, mostly) must hold nothing internal either.
 */
const write =
  (method: string, path: string, payload: object = {}): Requests =>
  () => [
    {
      method: method as InjectOptions["method"],
      url: path
        .replace(":permitId", w.permitId)
        .replace(":id", w.permitId)
        .replace(":cid", randomUUID())
        .replace("/api/request-links/:token", `/api/request-links/${w.requestToken}`)
        .replace(":token", ackToken()),
      payload,
    },
  ];
const step = (path: string, payload: object) => write("POST", `/api/permits/:id/${path}`, payload);

const ROUTES: Record<RouteKey, Requests> = {
  // Health, the API's description (it names the fields, never their values)
  "GET /healthz": get(at("/healthz")),
  "GET /readyz": get(at("/readyz")),
  "GET /api/docs": get(at("/api/docs")),
  "GET /api/docs/": get(at("/api/docs/")),
  "GET /api/docs/json": get(at("/api/docs/json")),
  "GET /api/docs/yaml": get(at("/api/docs/yaml")),
  "GET /api/docs/static/index.html": get(at("/api/docs/static/index.html")),
  "GET /api/docs/static/swagger-initializer.js": get(at("/api/docs/static/swagger-initializer.js")),
  "GET /api/docs/static/*": get(at("/api/docs/static/swagger-ui.css")),
  // The permit and the bond: detail, lifecycle (terms, inspections), audit, comments, files, reminders
  "GET /api/permits/:id": get(permit(), bond()),
  "GET /api/permits/:id/lifecycle": get(permit("/lifecycle"), bond("/lifecycle")),
  "GET /api/permits/:id/audit": get(permit("/audit"), bond("/audit")),
  "GET /api/permits/:id/comments": get(permit("/comments"), bond("/comments")),
  "GET /api/permits/:id/attachments": get(permit("/attachments?include_archived=true")),
  "GET /api/permits/:id/reminders": get(permit("/reminders"), bond("/reminders")),
  "GET /api/attachments/:id/download": get(() => `/api/attachments/${w.attachmentId}/download`),
  // Lists, counts and exports (CSV and Excel)
  "GET /api/permits": get(
    at("/api/permits?show_archived=true&show_non_required=true"),
    at("/api/permits?group_by=none&q=Harbour"),
  ),
  "GET /api/permits/summary": get(at("/api/permits/summary")),
  "GET /api/permits/export": get(
    at("/api/permits/export?show_archived=true&show_non_required=true"),
    at("/api/permits/export?show_archived=true&show_non_required=true&format=xlsx"),
  ),
  "GET /api/permits/filter-options": get(at("/api/permits/filter-options")),
  "GET /api/permits/form-options": get(() => `/api/permits/form-options?company_id=${w.companyId}`),
  "GET /api/permits/agencies": get(() => `/api/permits/agencies?company_id=${w.companyId}`),
  "GET /api/bonds": get(at("/api/bonds")),
  "GET /api/bonds/:id/ledger": get(() => `/api/bonds/${w.bondId}/ledger`),
  "GET /api/bonds/export": get(at("/api/bonds/export"), at("/api/bonds/export?format=xlsx")),
  "GET /api/bonds/schedule.xlsx": get(at("/api/bonds/schedule.xlsx")),
  "GET /api/projects": get(at("/api/projects")),
  "GET /api/projects/:id": get(() => `/api/projects/${w.projectId}`),
  "GET /api/projects/:id/dashboard": get(() => `/api/projects/${w.projectId}/dashboard`),
  // The calendar feed (each viewer's own), a reminder's Acknowledge link
  "GET /api/calendar/:file": get((v) => w.feeds[v]!),
  "GET /api/acknowledgements/:token": get(() => `/api/acknowledgements/${ackToken()}`),
  // Document requests (issue 27): what was asked of a permit, the party's link and its page
  "GET /api/permits/:permitId/requests": get(permit("/requests"), bond("/requests")),
  "GET /api/permits/:permitId/request-options": get(permit("/request-options")),
  "GET /api/requests/:id/files/:fileId": get(() => `/api/requests/${w.requestId}/files/${randomUUID()}`),
  "GET /api/requests": get(at("/api/requests"), at("/api/requests?state=awaiting_review")),
  "GET /api/requests/awaiting-count": get(at("/api/requests/awaiting-count")),
  "GET /api/request-links/:token": get(() => `/api/request-links/${w.requestToken}`),
  "GET /api/request-links/:token/logo": get(() => `/api/request-links/${w.requestToken}/logo`),
  // Document readings (issue 28): staff only (a client-user 403); a reading holds a file's text, no note
  "GET /api/permits/:id/document-readings": get(permit("/document-readings"), bond("/document-readings")),
  "GET /api/requests/:id/document-readings": get(() => `/api/requests/${w.requestId}/document-readings`),
  "GET /api/document-readings/:id": get(() => `/api/document-readings/${randomUUID()}`),
  "POST /api/document-readings": write("POST", "/api/document-readings"),
  "POST /api/permits/:id/accept-suggestions": write("POST", "/api/permits/:id/accept-suggestions", {
    reading_id: randomUUID(),
    fields: [{ field: "agency", value: "City of Test" }],
  }),
  // Conditions and tasks (issue 29): a client-user reads them without the note and the evidence
  // (the evidence file itself: 403); the project's events
  "GET /api/permits/:id/conditions": get(permit("/conditions"), bond("/conditions")),
  "GET /api/tasks/:id/evidence": get(() => `/api/tasks/${w.doneTaskId}/evidence`),
  "GET /api/projects/:id/events": get(() => `/api/projects/${w.projectId}/events`),
  "POST /api/permits/:id/conditions": step("conditions", {
    title: "A client's condition",
    schedule: "once",
    dueDate: "2040-01-31",
  }),
  "PATCH /api/conditions/:id": () => [
    {
      method: "PATCH",
      url: `/api/conditions/${w.conditionId}`,
      payload: { title: "Changed", schedule: "once", dueDate: "2040-01-31" },
    },
  ],
  "DELETE /api/conditions/:id": () => [{ method: "DELETE", url: `/api/conditions/${w.conditionId}` }],
  "POST /api/tasks/:id/complete": () => [
    {
      method: "POST",
      url: `/api/tasks/${w.openTaskId}/complete`,
      ...multipart([{ name: "note", content: "x" }]),
    },
  ],
  "POST /api/tasks/:id/not-applicable": () => [
    { method: "POST", url: `/api/tasks/${w.openTaskId}/not-applicable`, payload: { reason: "x" } },
  ],
  "POST /api/projects/:id/events": () => [
    {
      method: "POST",
      url: `/api/projects/${w.projectId}/events`,
      payload: { kind: "Concrete Pour", occurredAt: "2030-01-02T07:00" },
    },
  ],
  // The compliance packet and status links (issue 30): the packet holds no comment, note or fee; the
  // status link's page and packet, read without sign-in, neither; a client-user cannot share (403)
  "GET /api/projects/:id/compliance-packet.pdf": get(
    () => `/api/projects/${w.projectId}/compliance-packet.pdf`,
  ),
  "GET /api/clients/:id/compliance-packet.pdf": get(() => `/api/clients/${w.clientId}/compliance-packet.pdf`),
  "GET /api/projects/:id/packet-recipients": get(() => `/api/projects/${w.projectId}/packet-recipients`),
  "PUT /api/projects/:id/packet-recipients": () => [
    { method: "PUT", url: `/api/projects/${w.projectId}/packet-recipients`, payload: { emails: [] } },
  ],
  "GET /api/projects/:id/status-links": get(() => `/api/projects/${w.projectId}/status-links`),
  "GET /api/clients/:id/status-links": get(() => `/api/clients/${w.clientId}/status-links`),
  "POST /api/projects/:id/status-links": () => [
    { method: "POST", url: `/api/projects/${w.projectId}/status-links`, payload: { expires_in_days: 5 } },
  ],
  "POST /api/clients/:id/status-links": () => [
    { method: "POST", url: `/api/clients/${w.clientId}/status-links`, payload: { expires_in_days: 5 } },
  ],
  "POST /api/projects/:id/status-links/:linkId/revoke": () => [
    { method: "POST", url: `/api/projects/${w.projectId}/status-links/${randomUUID()}/revoke` },
  ],
  "POST /api/clients/:id/status-links/:linkId/revoke": () => [
    { method: "POST", url: `/api/clients/${w.clientId}/status-links/${randomUUID()}/revoke` },
  ],
  "GET /api/status-links/:token": get(() => `/api/status-links/${w.statusToken}`),
  "GET /api/status-links/:token/logo": get(() => `/api/status-links/${w.statusToken}/logo`),
  "GET /api/status-links/:token/packet.pdf": get(() => `/api/status-links/${w.statusToken}/packet.pdf`),
  // The rest of what a signed-in user may read
  "GET /api/me": get(at("/api/me")),
  "GET /api/me/calendar-token": get(at("/api/me/calendar-token")),
  "GET /api/me/two-factor": get(at("/api/me/two-factor")),
  "GET /api/saved-views": get(at("/api/saved-views")),
  "GET /api/sureties": get(at("/api/sureties")),
  "GET /api/contacts": get(at("/api/contacts")),
  // Issue 30: a client-user is refused the API keys (403); nothing of a permit in them anyway.
  "GET /api/api-keys": get(at("/api/api-keys")),
  // Issue 30: webhooks likewise (403 to a client-user); their events' data holds no comment or note.
  "GET /api/webhooks": get(at("/api/webhooks")),
  "GET /api/webhooks/:id/deliveries": get(() => `/api/webhooks/${randomUUID()}/deliveries`),
  "GET /api/contacts/picker": get(() => `/api/contacts/picker?company_id=${w.companyId}`),
  "GET /api/clients": get(at("/api/clients")),
  "GET /api/clients/:id": get(() => `/api/clients/${randomUUID()}`),
  "GET /api/companies": get(at("/api/companies")),
  "GET /api/companies/:id": get(() => `/api/companies/${w.companyId}`),
  "GET /api/companies/:id/logo": get(() => `/api/companies/${w.companyId}/logo`),
  "GET /api/users": get(at("/api/users")),
  "GET /api/users/:id": get(() => `/api/users/${w.clientUserId}`),
  "GET /api/templates": get(at("/api/templates")),
  "GET /api/notifications/settings": get(at("/api/notifications/settings")),
  "GET /api/notifications/deliveries": get(at("/api/notifications/deliveries")),
  "GET /api/impersonation/candidates": get(at("/api/impersonation/candidates")),
  "GET /api/imports/permits/template.csv": get(at("/api/imports/permits/template.csv")),

  // Writes. The lifecycle steps answer with the lifecycle: a client-user is refused them.
  "POST /api/permits/:id/renewals": step("renewals", {
    new_expiration_date: "2040-01-31",
    note: "x",
    note_internal: false,
  }),
  "POST /api/permits/:id/extensions": step("extensions", { new_expiration_date: "2040-01-31", reason: "x" }),
  "POST /api/permits/:id/inspections": step("inspections", {
    inspection_type: "Final",
    date: "2025-01-02",
    result: "Passed",
  }),
  "POST /api/permits/:id/acknowledgement": step("acknowledgement", {}),
  "POST /api/permits/:id/close": step("close", { close_date: "2025-01-02", final_status: "Finaled" }),
  "POST /api/permits/:id/comments": step("comments", { text: "A client's question" }),
  "POST /api/acknowledgements/:token": write("POST", "/api/acknowledgements/:token"),
  "POST /api/permits/:permitId/requests": write("POST", "/api/permits/:permitId/requests"),
  "POST /api/requests/:id/approve": write("POST", "/api/requests/:id/approve"),
  "POST /api/requests/:id/reject": write("POST", "/api/requests/:id/reject"),
  "POST /api/requests/:id/revoke": write("POST", "/api/requests/:id/revoke"),
  "POST /api/request-links/:token/files": write("POST", "/api/request-links/:token/files"),
  "POST /api/request-links/:token/submit": write("POST", "/api/request-links/:token/submit", { values: {} }),
  "PUT /api/permits/:id": write("PUT", "/api/permits/:id"),
  "DELETE /api/permits/:id": write("DELETE", "/api/permits/:id"),
  "POST /api/permits": write("POST", "/api/permits"),
  "POST /api/permits/:id/attachments": write("POST", "/api/permits/:id/attachments"),
  "POST /api/bonds/:id/ledger": write("POST", "/api/bonds/:id/ledger", { kind: "rider", change: "5" }),
  "POST /api/bonds/:id/documents": write("POST", "/api/bonds/:id/documents"),
  "POST /api/bonds/:id/collateral": write("POST", "/api/bonds/:id/collateral"),
  "PATCH /api/bonds/:id/collateral/:cid": write("PATCH", "/api/bonds/:id/collateral/:cid"),
  "POST /api/bonds/:id/maintenance-bond": write("POST", "/api/bonds/:id/maintenance-bond"),
  "POST /api/imports/permits": write("POST", "/api/imports/permits"),
  "POST /api/internal/reminders/run": write("POST", "/api/internal/reminders/run"),
  // Operations (issue 26): the last backup (super-admins), the nightly backup's trigger, the metrics
  // (a bearer token, else 404): none carries a permit's notes
  "GET /api/admin/backups/last": get(at("/api/admin/backups/last")),
  "POST /api/internal/backups/run": write("POST", "/api/internal/backups/run"),
  "GET /metrics": get(at("/metrics")),
  "POST /api/notifications/test-email": write("POST", "/api/notifications/test-email"),
  "PUT /api/notifications/settings": write("PUT", "/api/notifications/settings"),
  "POST /api/projects": write("POST", "/api/projects"),
  "PUT /api/projects/:id": write("PUT", "/api/projects/:id"),
  "PATCH /api/projects/:id/status": write("PATCH", "/api/projects/:id/status"),
  "DELETE /api/projects/:id": write("DELETE", "/api/projects/:id"),
  "POST /api/clients": write("POST", "/api/clients"),
  "PUT /api/clients/:id": write("PUT", "/api/clients/:id"),
  "DELETE /api/clients/:id": write("DELETE", "/api/clients/:id"),
  "POST /api/companies": write("POST", "/api/companies"),
  "PUT /api/companies/:id": write("PUT", "/api/companies/:id"),
  "DELETE /api/companies/:id": write("DELETE", "/api/companies/:id"),
  "POST /api/companies/:id/logo": write("POST", "/api/companies/:id/logo"),
  "DELETE /api/companies/:id/logo": write("DELETE", "/api/companies/:id/logo"),
  "POST /api/templates": write("POST", "/api/templates"),
  "PUT /api/templates/:id": write("PUT", "/api/templates/:id"),
  "PATCH /api/templates/:id": write("PATCH", "/api/templates/:id"),
  "DELETE /api/templates/:id": write("DELETE", "/api/templates/:id"),
  "POST /api/sureties": write("POST", "/api/sureties"),
  "PUT /api/sureties/:id": write("PUT", "/api/sureties/:id"),
  "DELETE /api/sureties/:id": write("DELETE", "/api/sureties/:id"),
  "POST /api/contacts": write("POST", "/api/contacts"),
  "POST /api/api-keys": write("POST", "/api/api-keys"),
  "POST /api/api-keys/:id/revoke": write("POST", "/api/api-keys/:id/revoke"),
  "POST /api/webhooks": write("POST", "/api/webhooks"),
  "PATCH /api/webhooks/:id": write("PATCH", "/api/webhooks/:id"),
  "DELETE /api/webhooks/:id": write("DELETE", "/api/webhooks/:id"),
  "POST /api/webhooks/:id/test": write("POST", "/api/webhooks/:id/test"),
  "POST /api/webhooks/:id/deliveries/:deliveryId/resend": write(
    "POST",
    "/api/webhooks/:id/deliveries/:deliveryId/resend",
  ),
  "PUT /api/contacts/:id": write("PUT", "/api/contacts/:id"),
  "DELETE /api/contacts/:id": write("DELETE", "/api/contacts/:id"),
  "POST /api/users": write("POST", "/api/users"),
  "PUT /api/users/:id": write("PUT", "/api/users/:id"),
  "DELETE /api/users/:id": write("DELETE", "/api/users/:id"),
  "PUT /api/users/:id/clients": write("PUT", "/api/users/:id/clients"),
  "POST /api/users/:id/disable": write("POST", "/api/users/:id/disable"),
  "POST /api/users/:id/enable": write("POST", "/api/users/:id/enable"),
  "POST /api/users/:id/two-factor/reset": write("POST", "/api/users/:id/two-factor/reset"),
  "POST /api/saved-views": write("POST", "/api/saved-views", { name: "Mine", params: { q: "Harbour" } }),
  "PUT /api/saved-views/:id": write("PUT", "/api/saved-views/:id"),
  "DELETE /api/saved-views/:id": write("DELETE", "/api/saved-views/:id"),
  "POST /api/impersonation": write("POST", "/api/impersonation"),
  "DELETE /api/impersonation": write("DELETE", "/api/impersonation"),
  "POST /api/me/calendar-token": write("POST", "/api/me/calendar-token"),
  "DELETE /api/me/calendar-token": write("DELETE", "/api/me/calendar-token"),
  "POST /api/me/password": write("POST", "/api/me/password"),
  "POST /api/me/two-factor/enable": write("POST", "/api/me/two-factor/enable"),
  "POST /api/me/two-factor/confirm": write("POST", "/api/me/two-factor/confirm"),
  "POST /api/me/two-factor/disable": write("POST", "/api/me/two-factor/disable"),
  "POST /api/me/two-factor/recovery-codes": write("POST", "/api/me/two-factor/recovery-codes"),
  "POST /api/auth/sign-in": write("POST", "/api/auth/sign-in"),
  "POST /api/auth/sign-in/code": write("POST", "/api/auth/sign-in/code"),
  "POST /api/auth/sign-out": write("POST", "/api/auth/sign-out"),
};

/** The answers that carry the notes: a client-user reads the shown ones there, staff all of them. */
const CARRIERS = {
  permitLifecycle: () => `/api/permits/${w.permitId}/lifecycle`,
  permitAudit: () => `/api/permits/${w.permitId}/audit`,
  bondLifecycle: () => `/api/permits/${w.bondId}/lifecycle`,
  permitConditions: () => `/api/permits/${w.permitId}/conditions`,
};

/** The internal texts a body holds (the body of an Excel answer: its cells, scannableText). */
const leaksIn = (text: string, forbidden: string[]) => forbidden.filter((s) => text.includes(s));

async function answer(caller: Caller, req: InjectOptions) {
  const res = await caller.request(req);
  return { status: res.statusCode, text: await scannableText(res) };
}

// ---------------------------------------------------------------------------------------------

describe("internal notes never reach a client-user (issue 25, item 4)", () => {
  it("has a row for every route of the app, and a route for every row", () => {
    const table = recorder.routesOf(t.app);
    const missing = table.filter(
      (route) => !(route in ROUTES) && !(route.startsWith("HEAD ") && `GET ${route.slice(5)}` in ROUTES),
    );
    const stale = (Object.keys(ROUTES) as RouteKey[]).filter((route) => {
      const [method, url] = route.split(" ") as [string, string];
      return !table.includes(route) && !t.app.hasRoute({ method: method as "GET", url });
    });
    expect(missing, "routes without a row: say what a client-user gets from them").toEqual([]);
    expect(stale, "rows without a route").toEqual([]);
  });

  it("no answer to a client-user, or to a super-admin impersonating one, holds an internal note or fee", async () => {
    const findings: string[] = [];
    let answers = 0;
    for (const viewer of CLIENT_VIEWERS) {
      for (const [route, requests] of Object.entries(ROUTES)) {
        if (!route.startsWith("GET ")) continue;
        for (const req of requests(viewer)) {
          const { status, text } = await answer(w.callers[viewer], req);
          answers++;
          for (const leak of leaksIn(text, INTERNAL_TEXT))
            findings.push(`${viewer} ${route} (${req.url}, ${status}): ${leak}`);
        }
      }
    }
    expect(findings).toEqual([]);
    expect(answers).toBeGreaterThan(100);
  }, 120_000);

  it("no answer to a client-user's write holds one either", async () => {
    const findings: string[] = [];
    // Another client-user of the same client: its sessions may end without ending the world's.
    const person = await t.make.user({
      role: "client-user",
      companyId: w.companyId,
      clientIds: [w.clientId],
    });
    for (const [route, requests] of Object.entries(ROUTES)) {
      if (route.startsWith("GET ")) continue;
      for (const req of requests("CL")) {
        // A session of its own for every write: one may end it (sign-out) or gate it.
        const caller = callerFor(t.app, (await t.signIn(person)).cookie);
        const { status, text } = await answer(caller, req);
        // The lifecycle steps answer with the lifecycle: the client-user is refused them.
        if (route.startsWith("POST /api/permits/:id/") && route !== "POST /api/permits/:id/comments")
          expect(status, route).toBe(403);
        for (const leak of leaksIn(text, INTERNAL_TEXT)) findings.push(`${route} (${status}): ${leak}`);
      }
    }
    expect(findings).toEqual([]);
  }, 120_000);

  it("a client-user reads the shown notes, fee and reason where they belong", async () => {
    for (const viewer of CLIENT_VIEWERS) {
      const caller = w.callers[viewer];
      const life = await answer(caller, { method: "GET", url: CARRIERS.permitLifecycle() });
      expect(life.status).toBe(200);
      for (const s of [SHOWN.renewalNote, SHOWN.fee, SHOWN.extensionReason, SHOWN.inspectionNote])
        expect(life.text, `${viewer} lifecycle: ${s}`).toContain(s);
      const audit = await answer(caller, { method: "GET", url: CARRIERS.permitAudit() });
      for (const s of [SHOWN.renewalNote, SHOWN.fee, SHOWN.extensionReason])
        expect(audit.text, `${viewer} audit: ${s}`).toContain(s);
      const bondLife = await answer(caller, { method: "GET", url: CARRIERS.bondLifecycle() });
      expect(bondLife.text).toContain(SHOWN.bondNote);
      // Issue 29: the conditions and their tasks, the completed one without its note and evidence.
      const conditions = await caller.request({ method: "GET", url: CARRIERS.permitConditions() });
      expect(conditions.statusCode).toBe(200);
      const tasks = (
        conditions.json() as { conditions: { tasks: Record<string, unknown>[] }[] }
      ).conditions.flatMap((c) => c.tasks);
      const completed = tasks.find((task) => task.id === w.doneTaskId);
      expect(completed, `${viewer} sees the completed task`).toMatchObject({
        status: "done",
        note: null,
        evidence: null,
      });
      const evidence = await caller.request({ method: "GET", url: `/api/tasks/${w.doneTaskId}/evidence` });
      expect(evidence.statusCode, `${viewer} evidence`).toBe(403);
    }
  });

  it("staff read every note, fee and reason, internal or not, from the same answers", async () => {
    for (const viewer of STAFF) {
      const caller = w.callers[viewer];
      const life = await answer(caller, { method: "GET", url: CARRIERS.permitLifecycle() });
      for (const s of [
        INTERNAL.renewalNote,
        INTERNAL.fee,
        INTERNAL.extensionReason,
        INTERNAL.inspectionNote,
        ...Object.values(SHOWN).filter((s) => s !== SHOWN.bondNote),
      ])
        expect(life.text, `${viewer} lifecycle: ${s}`).toContain(s);
      const audit = await answer(caller, { method: "GET", url: CARRIERS.permitAudit() });
      for (const s of [INTERNAL.renewalNote, INTERNAL.fee, INTERNAL.extensionReason, SHOWN.renewalNote])
        expect(audit.text, `${viewer} audit: ${s}`).toContain(s);
      const conditions = await answer(caller, { method: "GET", url: CARRIERS.permitConditions() });
      for (const s of [INTERNAL.taskNote, INTERNAL.evidenceName])
        expect(conditions.text, `${viewer} conditions: ${s}`).toContain(s);
      const evidence = await caller.request({ method: "GET", url: `/api/tasks/${w.doneTaskId}/evidence` });
      expect(evidence.statusCode, `${viewer} evidence`).toBe(200);
      expect(evidence.body).toBe("fence ok");
      const bondLife = await answer(caller, { method: "GET", url: CARRIERS.bondLifecycle() });
      for (const s of [INTERNAL.bondNote, INTERNAL.bondFee, INTERNAL.bondReason, SHOWN.bondNote])
        expect(bondLife.text, `${viewer} bond lifecycle: ${s}`).toContain(s);
      // The sweep's own reads, as staff: they answer (the scan above reads real answers).
      for (const [route, requests] of Object.entries(ROUTES)) {
        if (!route.startsWith("GET ")) continue;
        for (const req of requests(viewer)) {
          const res = await caller.request(req);
          expect(res.statusCode, `${viewer} ${req.url}`).toBeLessThan(500);
        }
      }
    }
  }, 120_000);

  it("no e-mail to a client-user holds one: the reminders are sent, to staff only", async () => {
    const before = smtp.messages.length;
    // The permit's expiry is 220 days out: a day 30 days before it, then 7, then 1.
    const expiry = addDays(todayIn("UTC"), 220);
    for (const days of [30, 7, 1]) {
      await runReminders({
        db: t.db,
        mailer: t.app.ctx.mailer,
        publicUrl: "http://localhost:3000",
        links: t.app.ctx.links,
        reminderHour: 0,
        asOf: addDays(expiry, -days),
        clock: () => new Date(`${addDays(expiry, -days)}T12:00:00Z`),
      });
    }
    const mails = smtp.messages.slice(before);
    expect(mails.length, "the reminders went out").toBeGreaterThan(0);
    for (const mail of smtp.messages.filter((m) => m.to.includes(w.clientUserEmail)))
      expect(leaksIn(mail.decoded, INTERNAL_TEXT), mail.subject).toEqual([]);
  });

  it("the scan finds an internal note where one is (it can fail)", async () => {
    const staffLife = await answer(w.callers.CA, { method: "GET", url: CARRIERS.permitLifecycle() });
    expect(leaksIn(staffLife.text, INTERNAL_TEXT)).toEqual(
      expect.arrayContaining([INTERNAL.renewalNote, INTERNAL.fee, INTERNAL.inspectionNote]),
    );
    const staffConditions = await answer(w.callers.CA, { method: "GET", url: CARRIERS.permitConditions() });
    expect(leaksIn(staffConditions.text, INTERNAL_TEXT)).toEqual(
      expect.arrayContaining([INTERNAL.taskNote, INTERNAL.evidenceName]),
    );
  });
});
