import { MAX_AMOUNT, toCents } from "../../shared/domain/bonds.ts";
import { createHash, randomUUID } from "node:crypto";
import type { InjectOptions } from "fastify";
import type { Response as InjectResponse } from "light-my-request";
import { beforeAll, describe, expect, it } from "vitest";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import { addDays, todayIn } from "../../shared/domain/dates.ts";
import { SAVED_VIEW_PARAMS } from "../../shared/domain/permit-list.ts";
import { PROJECT_STATUSES } from "../../shared/domain/statuses.ts";
import { createLinkSigner } from "../auth/link-signer.ts";
import { signAcknowledgeToken } from "../features/reminders/index.ts";
import { unsealLinkToken } from "../features/requests/index.ts";
import { documentReadings, documentRequests, requestFiles, requestSubmissions } from "../db/schema.ts";
import { and, eq, isNotNull } from "drizzle-orm";
import { DEFAULT_PASSWORD } from "../test-support/factories.ts";
import { useTestContext } from "../test-support/harness.ts";
import {
  auditKey,
  cloneSnapshot,
  commentKey,
  diffSnapshots,
  eventKey,
  NEW_PERMIT_LIFECYCLE,
  PERMIT_COLUMNS,
  snapshot,
  sortedParams,
  type PermitM,
  type Snapshot,
} from "../test-support/hostile-model.ts";
import { PNG } from "../test-support/matrix-world.ts";
import { multipart } from "../test-support/multipart.ts";
import {
  callerFor,
  mergeCookies,
  recordRoutes,
  unclearError,
  type Caller,
  type RouteKey,
} from "../test-support/security.ts";

/*
 * Issue 10, item 4: hostile input at scale. A seeded generator sends at least 10,000 requests over
 * every write route of the app (POST, PUT, PATCH, DELETE; uploads, CSV import and logo included),
 * mixing valid requests with hostile ones: wrong types, missing fields, huge strings and bodies,
 * NUL, unpaired surrogates, deep nesting, __proto__, impossible dates, SQL and script payloads,
 * malformed JSON and multipart, broken CSV, bad ids, missing CSRF header, foreign origins.
 *
 * Every hostile request must answer 4xx with `{ code, message }` whose message is a clear sentence,
 * never 5xx. Valid requests (SQL and script text among them: stored verbatim) must answer what a
 * model of the data predicts, and at the end the database must hold exactly what the model says
 * the valid requests wrote: permits, comments, attachments, clients, projects, templates, users,
 * companies, settings, saved views, and every audit row.
 *
 * HOSTILE_SEED and HOSTILE_REQUESTS (environment) replay or resize a run.
 */

const SEED = Number(process.env.HOSTILE_SEED ?? 104_729);
const TOTAL = Number(process.env.HOSTILE_REQUESTS ?? 10_000);
const HOSTILE_PER_ROUND = 4;

const recorder = recordRoutes();
const t = useTestContext({
  SIGNIN_IP_LIMIT: "100000000",
  SIGNIN_ACCOUNT_LIMIT: "100000000",
  API_RATE_LIMIT: "100000000",
  // The request links' guessing limit has tests of its own; here every hostile token is a miss.
  REQUEST_LINK_IP_LIMIT: "100000000",
  REQUEST_LINK_MISS_LIMIT: "100000000",
});

// ---------------------------------------------------------------------------------------------
// A seeded random source

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = mulberry32(SEED);
const chance = (p: number) => rnd() < p;
const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
function pick<T>(xs: readonly T[]): T {
  if (!xs.length) throw new Error("pick from nothing");
  return xs[Math.floor(rnd() * xs.length)]!;
}
let counter = 0;
const seq = () => (++counter).toString(36).padStart(4, "0");

// ---------------------------------------------------------------------------------------------
// Text: plain, and the payloads that are valid text and must be stored as sent

const SQL = [
  "'; DROP TABLE permits; --",
  "' OR '1'='1",
  "1; SELECT pg_sleep(5)--",
  "Robert'); DELETE FROM users;--",
  "%' OR 1=1 --",
  "$$; TRUNCATE audit_events; $$",
  "\\'; COMMIT; DROP SCHEMA public CASCADE;--",
];
const SCRIPT = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(document.cookie)>",
  '"><svg/onload=alert(1)>',
  "{{constructor.constructor('alert(1)')()}}",
  "${7*7} #{7*7}",
  "javascript:alert(1)",
];
const UNICODE = [
  "Café Zürich",
  "日本語の許可",
  "🚧 Permit 🚧",
  "עברית ואנגלית",
  "e\u0301 combining",
  "Ω≈ç√∫",
];

type Flavor = "plain" | "sql" | "script" | "unicode" | "padded";
const FLAVORS: Flavor[] = ["plain", "plain", "plain", "sql", "script", "unicode", "padded"];

/** A unique valid text of at most `max` characters, in a flavor; `stored` is what the database keeps. */
function text(label: string, max: number, flavor: Flavor = pick(FLAVORS)): { sent: string; stored: string } {
  const unique = `${label}-${seq()}`;
  const core =
    flavor === "sql"
      ? `${unique} ${pick(SQL)}`
      : flavor === "script"
        ? `${unique} ${pick(SCRIPT)}`
        : flavor === "unicode"
          ? `${unique} ${pick(UNICODE)}`
          : unique;
  const stored = [...core].slice(0, max).join("").trim();
  return { sent: flavor === "padded" ? `  ${stored}\t ` : stored, stored };
}
const flavorKind = (...flavors: (Flavor | undefined)[]) => {
  const f = flavors.find((x) => x && x !== "plain" && x !== "padded");
  return f ? `valid:${f}-text` : "valid";
};

// ---------------------------------------------------------------------------------------------
// The world and the callers

type Who = "SA" | "SA2" | "CA" | "CU" | "CL" | "anon";
let callers: Record<Who, Caller>;
let people: Record<"SA" | "SA2" | "CA" | "CU" | "CL", { id: string; email: string; password: string }>;
let A: string;
let B: string;
let seenClient: string;
let model: Snapshot;
let routeTable: RouteKey[];

// Issue 12: what the model keeps of bonds beyond the snapshot's columns. Bonds with a ledger (their
// Bond Amount is fixed), the form's surety per company ("Surety & Sons", made by the first bond),
// sureties made through Surety Admin, collateral per bond, performance bonds with a maintenance bond.
const FORM_SURETY = "Surety & Sons";
/** Bonds with a ledger, with their current amount in cents. */
const ledgered = new Map<string, bigint>();
const formSurety = new Map<string, string>();
const madeSureties = new Map<string, { companyId: string; name: string }>();
/** Issue 30: the API keys made through the route, and whether revoked since. */
const madeApiKeys = new Map<string, { companyId: string; revoked: boolean }>();
const collateralOf = new Map<string, string[]>();
const withMaintenance = new Set<string>();
/** Issue 27: contacts made through /api/contacts, by id. */
const madeContacts = new Map<string, { companyId: string }>();

async function signIn(user: { email: string; password: string }): Promise<Caller> {
  return callerFor(t.app, (await t.signIn(user)).cookie);
}

beforeAll(async () => {
  A = (await t.make.company({ name: "Hostile Acme", slug: "hostile-acme" })).id;
  B = (await t.make.company({ name: "Hostile Bayline", slug: "hostile-bayline" })).id;
  seenClient = (await t.make.client(A, "Seen Client")).id;
  const otherClient = (await t.make.client(A, "Other Client")).id;
  const bClient = (await t.make.client(B, "Bay Client")).id;
  const projectsA = [
    await t.make.project({
      companyId: A,
      clientId: seenClient,
      name: "Seen Tower",
      projectNumber: "PN-SEEN",
    }),
    await t.make.project({
      companyId: A,
      clientId: otherClient,
      name: "Other Works",
      projectNumber: "PN-OTHER",
    }),
  ];
  const projectB = await t.make.project({
    companyId: B,
    clientId: bClient,
    name: "Bay Pier",
    projectNumber: "PN-BAY",
  });
  for (const p of projectsA) {
    for (let i = 0; i < 3; i++)
      await t.make.permit({ companyId: A, projectId: p.id, startDate: "2026-01-01" });
  }
  await t.make.permit({ companyId: B, projectId: projectB.id, startDate: "2026-01-01" });
  await t.make.template({ companyId: A, name: "Building Permit", active: true });
  await t.make.template({ companyId: A, name: "Dormant Permit", active: false });
  await t.make.template({ companyId: B, name: "Harbour Permit", active: true });
  people = {
    SA: await t.make.user({ role: "super-admin" }),
    SA2: await t.make.user({ role: "super-admin" }),
    CA: await t.make.user({ role: "company-admin", companyId: A }),
    CU: await t.make.user({ role: "company-user", companyId: A }),
    CL: await t.make.user({ role: "client-user", companyId: A, clientIds: [seenClient] }),
  };
  callers = {
    SA: await signIn(people.SA),
    SA2: await signIn(people.SA2),
    CA: await signIn(people.CA),
    CU: await signIn(people.CU),
    CL: await signIn(people.CL),
    anon: callerFor(t.app, ""),
  };
  routeTable = recorder.routesOf(t.app);
  ackSecret = (await t.app.ctx.auth.$context).secret;
  // The model starts from the database as the setup left it, and from then on only changes by
  // what the valid requests are predicted to write.
  model = cloneSnapshot(await snapshot(t.db));
}, 120_000);

// ---------------------------------------------------------------------------------------------
// Requests

interface Call {
  who: Who;
  method: string;
  url: string;
  payload?: string | Buffer;
  headers?: Record<string, string>;
  /** Leave the CSRF header out. */
  noCsrf?: boolean;
}

interface Plan extends Call {
  route: RouteKey;
  kind: string;
  /** A status, or "4xx" for a hostile request (any 4xx but 401/403/429 unless listed in `also`). */
  expect: number | "4xx";
  also?: number[];
  /** The model's update once the answer is what was expected. */
  after?: (res: InjectResponse) => void | Promise<void>;
}

/** A JSON request a route accepts, before the generator spoils it. */
interface Base {
  who: Who;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

function urlOf(route: RouteKey, params: Record<string, string> = {}, query: Record<string, string> = {}) {
  let path = route.slice(route.indexOf(" ") + 1);
  for (const [k, v] of Object.entries(params)) path = path.replace(`:${k}`, v);
  const qs = new URLSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
}
const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { "content-type": "application/json" },
});

// ---------------------------------------------------------------------------------------------
// Model helpers

const today = () => todayIn("UTC");
const byCompany = <V extends { companyId: string | null }>(m: Map<string, V>, companyId: string) =>
  [...m].filter(([, v]) => v.companyId === companyId).map(([id]) => id);
/** Attachments that are ledger entries' documents: a bond's new file archives none of them. */
const ledgerDocuments = new Set<string>();
const addAudit = (companyId: string, permitId: string, action: string, field: string | null = null) =>
  model.permitAudit.push(auditKey(companyId, permitId, action, field));
const addEvent = (companyId: string | null, action: string, entityType: string) =>
  model.events.push(eventKey(companyId, action, entityType));
const lower = (s: string) => s.trim().toLowerCase();
/** The same name in other letter case, where case folding is plain ASCII (the database's lower() agrees). */
const otherCase = (s: string) => (/^[\x20-\x7e]*$/.test(s) ? s.toUpperCase() : s);

/**
 * A bond saved through the form (issue 12): its typed surety is made the first time in the company
 * (an event), and a first amount opens its ledger (the original entry's audit rows).
 */
function bondSaved(id: string, stored: PermitM, suretyId: string | null) {
  if (stored.recordType !== "bond") return;
  if (stored.suretyCompany && !formSurety.has(stored.companyId)) {
    addEvent(stored.companyId, "surety.create", "surety");
  }
  if (stored.suretyCompany && suretyId) formSurety.set(stored.companyId, suretyId);
  if (stored.bondAmount !== null && !ledgered.has(id)) {
    ledgered.set(id, toCents(stored.bondAmount));
    for (const field of ["bond_ledger", "current_amount", "bond_status"]) {
      addAudit(stored.companyId, id, "ledger", field);
    }
  }
}

/** Bonds with a ledger the actor may write, in scope (staff; a super-admin both companies). */
const ledgeredBonds = (who: Who, filter: (id: string, p: PermitM) => boolean = () => true) =>
  [...ledgered.keys()].filter((id) => {
    const p = model.permits.get(id);
    return !!p && scopeOf(who).includes(p.companyId) && filter(id, p);
  });

function removePermit(id: string) {
  ledgered.delete(id);
  collateralOf.delete(id);
  withMaintenance.delete(id);
  model.permits.delete(id);
  model.comments = model.comments.filter((c) => !c.startsWith(`${id}|`));
  for (const [aid, a] of model.attachments) if (a.permitId === id) model.attachments.delete(aid);
}

/** Everything a company owns goes with it (foreign-key cascades), its audit rows included. */
function removeCompany(id: string) {
  for (const [pid, p] of model.permits) if (p.companyId === id) removePermit(pid);
  for (const m of [model.projects, model.clients, model.templates] as Map<string, { companyId: string }>[]) {
    for (const [k, v] of m) if (v.companyId === id) m.delete(k);
  }
  for (const [uid, u] of model.users) if (u.companyId === id) removeUser(uid);
  model.permitAudit = model.permitAudit.filter((k) => !k.startsWith(`${id}|`));
  model.events = model.events.filter((k) => !k.startsWith(`${id}|`));
  model.prefs.delete(id);
  for (const k of model.recipients) if (k.startsWith(`${id}/`)) model.recipients.delete(k);
  for (const k of model.userClients) {
    const [, clientId] = k.split("/");
    if (!model.clients.has(clientId!)) model.userClients.delete(k);
  }
  model.companies.delete(id);
}

function removeUser(id: string) {
  model.users.delete(id);
  for (const k of model.userClients) if (k.startsWith(`${id}/`)) model.userClients.delete(k);
  for (const k of model.recipients) if (k.endsWith(`/${id}`)) model.recipients.delete(k);
  for (const [vid, v] of model.views) if (v.userId === id) model.views.delete(vid);
}

const ACTORS_IDS = () => new Set(Object.values(people).map((p) => p.id));
/** Users the generator made (never one of its own callers). */
const madeUsers = (
  companyId: string,
  filter: (u: Snapshot["users"] extends Map<string, infer U> ? U : never) => boolean = () => true,
) =>
  [...model.users]
    .filter(([id, u]) => u.companyId === companyId && !ACTORS_IDS().has(id) && filter(u))
    .map(([id]) => id);
const madeCompanies = () => [...model.companies.keys()].filter((id) => id !== A && id !== B);
const companyFor = (who: Who) => (who === "SA" || who === "SA2" ? pick([A, A, B]) : A);
const permitsOf = (companyId: string) => byCompany(model.permits, companyId);
const clientsSeenBy = (userId: string) =>
  new Set([...model.userClients].filter((k) => k.startsWith(`${userId}/`)).map((k) => k.split("/")[1]!));

// ---------------------------------------------------------------------------------------------
// The routes: a valid request with its predicted effect, and the fields a hostile one can spoil

interface Fields {
  text?: string[];
  date?: string[];
  id?: string[];
  bool?: string[];
  enum?: string[];
  number?: string[];
  array?: string[];
  required?: string[];
}

interface Spec {
  route: RouteKey;
  /** The body is JSON with a schema (`json`), multipart, or nothing the route reads (`none`). */
  body: "json" | "none" | "attachment" | "logo" | "csv";
  fields?: Fields;
  /** Query parameters the route validates, with bad values for them. */
  badQuery?: Record<string, string[]>;
  /** A valid request and its effect, or null when the model has nothing to act on. */
  valid?: () => Plan | null;
  /** How often (relative) the valid request is chosen. */
  weight?: number;
  /** A request the route accepts, for the hostile kinds to spoil. */
  base: () => Base | null;
  /** Statuses a hostile request may also get from this route (e.g. the code step's 401). */
  also?: number[];
}

const PROJECT_STATUS = PROJECT_STATUSES as readonly string[];
const dateBetween = (from: number, to: number) => {
  const d = new Date(Date.UTC(int(from, to), int(0, 11), int(1, 28)));
  return d.toISOString().slice(0, 10);
};
const money = (amount: string) => {
  const [whole = "0", cents = ""] = amount.split(".");
  return `${BigInt(whole).toString()}.${cents.padEnd(2, "0")}`;
};

/** A valid permit body for a company, and the columns it will store (status and ids aside). */
function permitBody(companyId: string, who: Who, forStatus: (isRequired: boolean) => string) {
  const projects = byCompany(model.projects, companyId);
  const projectId = projects.length ? pick(projects) : null;
  const flavors = [pick(FLAVORS), pick(FLAVORS), pick(FLAVORS)];
  const number = text("PN", 100, flavors[0]);
  const name = text("Permit", 200, flavors[1]);
  const agency = text("Agency", 200, flavors[2]);
  const isBond = chance(0.25);
  const isRequired = chance(0.7);
  const start = dateBetween(2024, 2027);
  const expiration = chance(0.5) ? `${Number(start.slice(0, 4)) + 1}${start.slice(4)}` : start;
  const amount = isBond ? pick(["1500", "1500.5", "25000.00", "0", "999999999999.99"]) : null;
  const phase = chance(0.4) ? text("Phase", 200) : null;
  const body: Record<string, unknown> = {
    permit_number: number.sent,
    permit_name: name.sent,
    record_type: isBond ? "bond" : "permit",
    agency: agency.sent,
    is_required: isRequired,
    archived: chance(0.1),
    project_id: projectId,
    permit_application_date: chance(0.5) ? dateBetween(2023, 2024) : "",
    expiration_date: expiration,
    start_date: start,
    phase: phase?.sent ?? null,
    grantor_link: chance(0.3) ? `https://grantor.example/${seq()}` : "",
  };
  if (isBond) {
    Object.assign(body, {
      bond_amount: chance(0.5) ? amount : Number(amount),
      surety_company: "Surety & Sons",
      bond_number: `BN-${seq()}`,
      guarantee_type: pick(["Performance", "Maintenance"]),
    });
  }
  if (who === "SA" || who === "SA2") body.company_id = companyId;
  // Everyone else may name a company: it is ignored (their own is used).
  else if (chance(0.3)) body.company_id = B;
  if (chance(0.15)) Object.assign(body, { unexpected: "ignored", status: "N/A", created_by: people.SA.id });
  const project = projectId ? model.projects.get(projectId)! : null;
  const stored: PermitM = {
    companyId,
    projectId,
    clientId: project?.clientId ?? null,
    permitNumber: number.stored,
    permitName: name.stored,
    recordType: isBond ? "bond" : "permit",
    agency: agency.stored,
    status: forStatus(isRequired),
    archived: body.archived as boolean,
    permitApplicationDate: (body.permit_application_date as string) || null,
    issueDate: null,
    expirationDate: expiration,
    startDate: start,
    closeDate: null,
    phase: phase?.stored ?? null,
    aka: null,
    grantorLink: (body.grantor_link as string) || null,
    bondAmount: isBond ? money(amount!) : null,
    suretyCompany: isBond ? "Surety & Sons" : null,
    bondNumber: isBond ? (body.bond_number as string) : null,
    guaranteeType: isBond ? (body.guarantee_type as string) : null,
    ...NEW_PERMIT_LIFECYCLE,
  };
  const kind = body.unexpected
    ? "valid:extra-fields"
    : body.company_id === B && companyId === A
      ? "valid:ignored-company"
      : flavorKind(...flavors);
  return { body, stored, kind };
}

/** Every column the permit form writes (and audits under its column name when it changes). */
const FORM_COLUMNS: Record<string, string> = {
  ...PERMIT_COLUMNS,
  responsibleUserId: "responsible_user_id",
  expiryRule: "expiry_rule",
  expiryDays: "expiry_days",
  renewalLeadDays: "renewal_lead_days",
  // With its Close Date (issue 24): cleared with the date.
  finalStatus: "final_status",
};

const PERMIT_FIELDS: Fields = {
  text: [
    "permit_number",
    "permit_name",
    "agency",
    "phase",
    "aka",
    "surety_company",
    "bond_number",
    "grantor_link",
  ],
  date: ["expiration_date", "start_date", "permit_application_date", "issue_date", "close_date"],
  id: ["project_id", "company_id"],
  bool: ["is_required", "archived"],
  enum: ["record_type", "guarantee_type"],
  number: ["bond_amount"],
  // Issue 27: the contacts it lists (ids); the valid requests leave them out (kept as they are).
  array: ["contact_ids"],
  required: ["permit_number", "permit_name", "record_type", "agency", "expiration_date"],
};

const staff = (): Who => pick(["CA", "CU", "SA"]);
const admin = (): Who => pick(["CA", "CA", "SA"]);
const scopeOf = (who: Who) => (who === "SA" || who === "SA2" ? [A, B] : [A]);

function pickPermit(who: Who): string | null {
  const ids = scopeOf(who).flatMap(permitsOf);
  if (who === "CL") {
    const seen = clientsSeenBy(people.CL.id);
    const visible = ids.filter((id) => seen.has(model.permits.get(id)!.clientId ?? ""));
    return visible.length ? pick(visible) : null;
  }
  return ids.length ? pick(ids) : null;
}

const SPECS: Spec[] = [
  // ----- Permits
  {
    route: "POST /api/permits",
    body: "json",
    fields: PERMIT_FIELDS,
    weight: 6,
    base: () => {
      const who = staff();
      return { who, body: permitBody(companyFor(who), who, () => "Required").body };
    },
    valid: () => {
      const who = staff();
      const companyId = companyFor(who);
      const { body, stored, kind } = permitBody(companyId, who, (req) => (req ? "Required" : "In Waiting"));
      return {
        route: "POST /api/permits",
        kind,
        who,
        method: "POST",
        url: "/api/permits",
        ...json(body),
        expect: 201,
        after: (res) => {
          const { id, surety_id } = res.json() as { id: string; surety_id: string | null };
          model.permits.set(id, stored);
          addAudit(companyId, id, "create");
          bondSaved(id, stored, surety_id);
        },
      };
    },
  },
  {
    route: "PUT /api/permits/:id",
    body: "json",
    fields: PERMIT_FIELDS,
    weight: 6,
    base: () => {
      const who = staff();
      const id = pickPermit(who);
      if (!id) return null;
      return {
        who,
        params: { id },
        body: permitBody(model.permits.get(id)!.companyId, who, () => "Required").body,
      };
    },
    valid: () => {
      const who = staff();
      const id = pickPermit(who);
      if (!id) return null;
      const current = model.permits.get(id)!;
      const { body, stored, kind } = permitBody(current.companyId, who, (req) =>
        req ? "Required" : current.status !== "Required" ? current.status : "In Waiting",
      );
      // A bond with a ledger stays a bond with its original amount (issue 12: the form refuses
      // anything else); the other bond fields change freely.
      if (ledgered.has(id)) {
        const guarantee = pick(["Performance", "Maintenance"]);
        Object.assign(body, {
          record_type: "bond",
          bond_amount: current.bondAmount,
          surety_company: FORM_SURETY,
          bond_number: `BN-${seq()}`,
          guarantee_type: guarantee,
        });
        Object.assign(stored, {
          recordType: "bond",
          bondAmount: current.bondAmount,
          suretyCompany: FORM_SURETY,
          bondNumber: body.bond_number,
          guaranteeType: guarantee,
        });
      }
      return {
        route: "PUT /api/permits/:id",
        kind,
        who,
        method: "PUT",
        url: `/api/permits/${id}`,
        ...json(body),
        expect: 200,
        after: (res) => {
          // The form writes its columns and the expiry settings (here the defaults); the term and
          // the acknowledgement are the lifecycle's. Its Final Status goes with its Close Date, which
          // these bodies leave empty.
          const next: PermitM = {
            ...stored,
            termNo: current.termNo,
            acknowledged: current.acknowledged,
            finalStatus: stored.closeDate ? current.finalStatus : null,
          };
          for (const [key, column] of Object.entries(FORM_COLUMNS) as [keyof PermitM, string][]) {
            if (current[key] !== next[key]) addAudit(current.companyId, id, "update", column);
          }
          model.permits.set(id, next);
          bondSaved(id, next, (res.json() as { surety_id: string | null }).surety_id);
        },
      };
    },
  },
  {
    route: "DELETE /api/permits/:id",
    body: "none",
    weight: 2,
    base: () => {
      const who = admin();
      const id = pickPermit(who);
      return id ? { who, params: { id } } : null;
    },
    valid: () => {
      const who = admin();
      const id = pickPermit(who);
      if (!id) return null;
      const { companyId } = model.permits.get(id)!;
      return {
        route: "DELETE /api/permits/:id",
        kind: "valid",
        who,
        method: "DELETE",
        url: `/api/permits/${id}`,
        expect: 204,
        after: () => {
          removePermit(id);
          addAudit(companyId, id, "delete");
        },
      };
    },
  },
  {
    route: "POST /api/permits/:id/comments",
    body: "json",
    fields: { text: ["text"], bool: ["isInternal"], required: ["text"] },
    weight: 5,
    base: () => {
      const who = pick<Who>(["CA", "CU", "CL", "SA"]);
      const id = pickPermit(who);
      return id ? { who, params: { id }, body: { text: "A comment", isInternal: false } } : null;
    },
    valid: () => {
      const who = pick<Who>(["CA", "CU", "CL", "SA"]);
      const id = pickPermit(who);
      if (!id) return null;
      const body = text("Comment", 5000);
      const asked = chance(0.4);
      // A client-user's internal flag is ignored, not refused.
      const internal = asked && who !== "CL";
      const { companyId } = model.permits.get(id)!;
      return {
        route: "POST /api/permits/:id/comments",
        kind: asked && who === "CL" ? "valid:client-user-internal-flag" : flavorKind(),
        who,
        method: "POST",
        url: `/api/permits/${id}/comments`,
        ...json({ text: body.sent, isInternal: asked }),
        expect: 201,
        after: () => {
          model.comments.push(commentKey(id, internal, body.stored));
          addAudit(companyId, id, "comment", internal ? "internal comment" : "comment");
        },
      };
    },
  },
  {
    route: "POST /api/permits/:id/attachments",
    body: "attachment",
    weight: 3,
    base: () => {
      const who = staff();
      const id = pickPermit(who);
      return id ? { who, params: { id } } : null;
    },
    valid: () => {
      const who = staff();
      const id = pickPermit(who);
      if (!id) return null;
      const name = `plan-${seq()}.pdf`;
      const variant = pick(["plain", "plain", "traversal", "unicode", "controls"] as const);
      const sent = {
        plain: name,
        traversal: `../../../etc/${name}`,
        unicode: `Plän ${name}`,
        controls: `in\u202Evoice-${name}`,
      }[variant];
      const expected = { plain: name, traversal: name, unicode: `Plän ${name}`, controls: `invoice-${name}` }[
        variant
      ];
      const { companyId } = model.permits.get(id)!;
      const content = `%PDF-1.4 ${seq()}`;
      return {
        route: "POST /api/permits/:id/attachments",
        kind: variant === "plain" ? "valid" : `valid:${variant}-file-name`,
        who,
        method: "POST",
        url: `/api/permits/${id}/attachments`,
        ...multipart([{ name: "file", filename: sent, contentType: "application/pdf", content }]),
        expect: 201,
        after: async (res) => {
          await markRead(id, content);
          const { attachment } = res.json() as { attachment: { id: string; filename: string } };
          for (const [attachmentId, a] of model.attachments) {
            if (a.permitId === id && !a.archived && !ledgerDocuments.has(attachmentId)) {
              a.archived = true;
              addAudit(companyId, id, "archive", "attachment");
            }
          }
          model.attachments.set(attachment.id, { permitId: id, filename: expected, archived: false });
          addAudit(companyId, id, "upload", "attachment");
        },
      };
    },
  },

  // ----- API keys (issue 30): admins; the key is answered once, and only the events are modelled
  {
    route: "POST /api/api-keys",
    body: "json",
    fields: {
      text: ["name"],
      id: ["company_id"],
      enum: ["role"],
      date: ["expires_on"],
      required: ["name", "role"],
    },
    weight: 1,
    base: () => ({ who: admin(), body: { name: `Key ${seq()}`, role: "company-user", company_id: A } }),
    valid: () => {
      const who = admin();
      const companyId = who === "SA" ? companyFor(who) : A;
      const name = text("Key", 100);
      return {
        route: "POST /api/api-keys",
        kind: flavorKind(),
        who,
        method: "POST",
        url: "/api/api-keys",
        ...json({
          name: name.sent,
          role: pick(["company-admin", "company-user"]),
          ...(chance(0.5) ? { expires_on: "2099-12-31" } : {}),
          ...(who === "SA" ? { company_id: companyId } : {}),
        }),
        expect: 201,
        after: (res) => {
          const { api_key } = res.json() as { api_key: { id: string } };
          madeApiKeys.set(api_key.id, { companyId, revoked: false });
          addEvent(companyId, "api_key.create", "api_key");
        },
      };
    },
  },
  {
    route: "POST /api/api-keys/:id/revoke",
    body: "none",
    weight: 1,
    base: () => {
      const ids = [...madeApiKeys].filter(([, v]) => v.companyId === A && !v.revoked).map(([id]) => id);
      return { who: "CA", params: { id: ids.length ? pick(ids) : crypto.randomUUID() } };
    },
    valid: () => {
      const who = admin();
      const ids = [...madeApiKeys]
        .filter(([, v]) => scopeOf(who).includes(v.companyId) && !v.revoked)
        .map(([id]) => id);
      if (!ids.length) return null;
      const id = pick(ids);
      const key = madeApiKeys.get(id)!;
      return {
        route: "POST /api/api-keys/:id/revoke",
        kind: "valid",
        who,
        method: "POST",
        url: `/api/api-keys/${id}/revoke`,
        expect: 200,
        after: () => {
          key.revoked = true;
          addEvent(key.companyId, "api_key.revoke", "api_key");
        },
      };
    },
  },

  // ----- Webhooks (issue 30): admins. A valid add is modelled (its audit event); the other routes
  // get hostile requests only, on unknown endpoints (404 after the body's checks). A public address
  // literal: the server refuses private ones (WEBHOOKS_ALLOW_PRIVATE is off here) and looks nothing up.
  {
    route: "POST /api/webhooks",
    body: "json",
    fields: { text: ["url"], id: ["company_id"], enum: ["format"], array: ["events"], required: ["url"] },
    weight: 1,
    base: () => ({
      who: "CA",
      body: { url: "https://93.184.215.14/hook", format: "standard", company_id: A },
    }),
    valid: () => {
      const who = admin();
      const companyId = who === "SA" ? companyFor(who) : A;
      return {
        route: "POST /api/webhooks",
        kind: "valid",
        who,
        method: "POST",
        url: "/api/webhooks",
        ...json({
          url: `https://93.184.215.14/hooks/${seq()}`,
          format: pick(["standard", "slack", "teams"]),
          ...(chance(0.5) ? { events: ["permit.updated", "permit.expired"] } : {}),
          ...(who === "SA" ? { company_id: companyId } : {}),
        }),
        expect: 201,
        after: () => {
          addEvent(companyId, "webhook.create", "webhook");
        },
      };
    },
  },
  {
    route: "PATCH /api/webhooks/:id",
    body: "json",
    fields: { text: ["url"], enum: ["format"], bool: ["enabled"], array: ["events"] },
    weight: 1,
    base: () => ({ who: "CA", params: { id: crypto.randomUUID() }, body: { enabled: false } }),
  },
  {
    route: "DELETE /api/webhooks/:id",
    body: "none",
    weight: 1,
    base: () => ({ who: "CA", params: { id: crypto.randomUUID() } }),
  },
  {
    route: "POST /api/webhooks/:id/test",
    body: "none",
    weight: 1,
    base: () => ({ who: "CA", params: { id: crypto.randomUUID() } }),
  },
  {
    route: "POST /api/webhooks/:id/deliveries/:deliveryId/resend",
    body: "none",
    weight: 1,
    base: () => ({ who: "CA", params: { id: crypto.randomUUID(), deliveryId: crypto.randomUUID() } }),
  },

  // ----- Conditions of approval (issue 29) and status links (issue 30): hostile requests only. Their
  // valid traffic is not modelled yet (the model would have to track conditions, tasks and links), so
  // a request here must fail before it writes: on a real permit or project a spoiled body, elsewhere
  // an unknown condition, task or link (404 after the body's checks).
  {
    route: "POST /api/permits/:id/conditions",
    body: "json",
    fields: {
      text: ["title", "description", "milestoneName", "eventKind"],
      enum: ["evidence", "schedule", "unit", "offsetUnit"],
      date: ["dueDate", "startsOn", "endsOn"],
      number: ["interval", "offsetAmount"],
      required: ["title", "schedule"],
    },
    weight: 1,
    base: () => {
      const who = staff();
      const id = pickPermit(who);
      return id
        ? {
            who,
            params: { id },
            body: { title: "Keep the permit card posted", schedule: "once", dueDate: "2030-01-01" },
          }
        : null;
    },
  },
  {
    route: "PATCH /api/conditions/:id",
    body: "json",
    fields: { text: ["title"], enum: ["schedule"], date: ["dueDate"], required: ["title", "schedule"] },
    weight: 1,
    base: () => ({
      who: staff(),
      params: { id: crypto.randomUUID() },
      body: { title: "Keep the permit card posted", schedule: "once", dueDate: "2030-01-01" },
    }),
  },
  {
    route: "DELETE /api/conditions/:id",
    body: "none",
    weight: 1,
    base: () => ({ who: staff(), params: { id: crypto.randomUUID() } }),
  },
  {
    route: "POST /api/tasks/:id/complete",
    body: "attachment",
    weight: 1,
    base: () => ({ who: staff(), params: { id: crypto.randomUUID() } }),
  },
  {
    route: "POST /api/tasks/:id/not-applicable",
    body: "json",
    fields: { text: ["reason"], required: ["reason"] },
    weight: 1,
    base: () => ({
      who: staff(),
      params: { id: crypto.randomUUID() },
      body: { reason: "No work this week" },
    }),
  },
  {
    route: "POST /api/projects/:id/events",
    body: "json",
    fields: { text: ["kind", "occurredAt", "note"], required: ["kind", "occurredAt"] },
    weight: 1,
    base: () => {
      const ids = byCompany(model.projects, A);
      return ids.length
        ? {
            who: "CA",
            params: { id: pick(ids) },
            body: { kind: "Rain ≥ 0.25 in", occurredAt: "2030-01-01T08:00" },
          }
        : null;
    },
  },
  {
    route: "POST /api/projects/:id/status-links",
    body: "json",
    fields: { number: ["expires_in_days"] },
    weight: 1,
    base: () => {
      const ids = byCompany(model.projects, A);
      return ids.length ? { who: "CA", params: { id: pick(ids) }, body: { expires_in_days: 30 } } : null;
    },
  },
  {
    route: "POST /api/clients/:id/status-links",
    body: "json",
    fields: { number: ["expires_in_days"] },
    weight: 1,
    base: () => {
      const ids = byCompany(model.clients, A);
      return ids.length ? { who: "CA", params: { id: pick(ids) }, body: { expires_in_days: 30 } } : null;
    },
  },
  {
    route: "POST /api/projects/:id/status-links/:linkId/revoke",
    body: "none",
    weight: 1,
    base: () => {
      const ids = byCompany(model.projects, A);
      return ids.length ? { who: "CA", params: { id: pick(ids), linkId: crypto.randomUUID() } } : null;
    },
  },
  {
    route: "POST /api/clients/:id/status-links/:linkId/revoke",
    body: "none",
    weight: 1,
    base: () => {
      const ids = byCompany(model.clients, A);
      return ids.length ? { who: "CA", params: { id: pick(ids), linkId: crypto.randomUUID() } } : null;
    },
  },
  {
    route: "PUT /api/projects/:id/packet-recipients",
    body: "json",
    fields: { array: ["emails"], required: ["emails"] },
    weight: 1,
    base: () => {
      const ids = byCompany(model.projects, A);
      return ids.length
        ? { who: "CA", params: { id: pick(ids) }, body: { emails: ["owner@example.com"] } }
        : null;
    },
  },

  // ----- Sureties and bonds (issue 12)
  {
    route: "POST /api/sureties",
    body: "json",
    fields: {
      text: ["name", "contact_name", "phone", "email"],
      id: ["company_id"],
      number: ["single_limit", "aggregate_limit"],
      required: ["name"],
    },
    weight: 1,
    base: () => ({
      who: admin(),
      body: { name: `Surety ${seq()}`, company_id: A, aggregate_limit: "1000000" },
    }),
    valid: () => {
      const who = admin();
      const companyId = who === "SA" ? companyFor(who) : A;
      const name = text("Surety", 200);
      return {
        route: "POST /api/sureties",
        kind: flavorKind(),
        who,
        method: "POST",
        url: "/api/sureties",
        ...json({
          name: name.sent,
          ...(who === "SA" ? { company_id: companyId } : {}),
          single_limit: "250000",
          aggregate_limit: chance(0.5) ? "1,000,000" : 1000000,
        }),
        expect: 201,
        after: (res) => {
          const { surety } = res.json() as { surety: { id: string } };
          madeSureties.set(surety.id, { companyId, name: name.stored });
          addEvent(companyId, "surety.create", "surety");
        },
      };
    },
  },
  {
    route: "PUT /api/sureties/:id",
    body: "json",
    fields: {
      text: ["name", "contact_name", "phone", "email"],
      number: ["single_limit", "aggregate_limit"],
      required: ["name"],
    },
    weight: 1,
    base: () => {
      const ids = [...madeSureties].filter(([, v]) => v.companyId === A).map(([id]) => id);
      return {
        who: "CA",
        params: { id: ids.length ? pick(ids) : crypto.randomUUID() },
        body: { name: `Surety ${seq()}` },
      };
    },
    valid: () => {
      const who = admin();
      const ids = [...madeSureties].filter(([, v]) => scopeOf(who).includes(v.companyId)).map(([id]) => id);
      if (!ids.length) return null;
      const id = pick(ids);
      const surety = madeSureties.get(id)!;
      const name = text("Surety", 200);
      return {
        route: "PUT /api/sureties/:id",
        kind: flavorKind(),
        who,
        method: "PUT",
        url: `/api/sureties/${id}`,
        ...json({ name: name.sent, contact_name: "Kay", aggregate_limit: "5000000" }),
        expect: 200,
        after: () => {
          surety.name = name.stored;
          addEvent(surety.companyId, "surety.update", "surety");
        },
      };
    },
  },
  {
    route: "DELETE /api/sureties/:id",
    body: "none",
    weight: 1,
    base: () => {
      const ids = [...madeSureties].filter(([, v]) => v.companyId === A).map(([id]) => id);
      return { who: "CA", params: { id: ids.length ? pick(ids) : crypto.randomUUID() } };
    },
    valid: () => {
      const who = admin();
      // Now and then the form's surety, which any bond naming it keeps (409).
      const form = scopeOf(who).filter((c) => formSurety.has(c));
      if (form.length && chance(0.3)) {
        const companyId = pick(form);
        const id = formSurety.get(companyId)!;
        const used = [...model.permits.values()].some(
          (p) => p.companyId === companyId && p.recordType === "bond" && p.suretyCompany === FORM_SURETY,
        );
        return {
          route: "DELETE /api/sureties/:id",
          kind: used ? "valid:surety-in-use" : "valid",
          who,
          method: "DELETE",
          url: `/api/sureties/${id}`,
          expect: used ? 409 : 204,
          after: () => {
            if (used) return;
            formSurety.delete(companyId);
            addEvent(companyId, "surety.delete", "surety");
          },
        };
      }
      const ids = [...madeSureties].filter(([, v]) => scopeOf(who).includes(v.companyId)).map(([id]) => id);
      if (!ids.length) return null;
      const id = pick(ids);
      const { companyId } = madeSureties.get(id)!;
      return {
        route: "DELETE /api/sureties/:id",
        kind: "valid",
        who,
        method: "DELETE",
        url: `/api/sureties/${id}`,
        expect: 204,
        after: () => {
          madeSureties.delete(id);
          addEvent(companyId, "surety.delete", "surety");
        },
      };
    },
  },
  // ----- Contacts (issue 27): staff add, admins edit and delete; e-mails unique per company
  {
    route: "POST /api/contacts",
    body: "json",
    fields: {
      text: ["name", "email", "organization", "phone", "notes"],
      id: ["company_id"],
      enum: ["kind"],
      required: ["name"],
    },
    weight: 1,
    base: () => ({
      who: "CA",
      body: { name: `Contact ${seq()}`, company_id: A, email: `c${seq()}@contacts.example`, kind: "agency" },
    }),
    valid: () => {
      const who = pick<Who>(["CA", "CU", "SA"]);
      const companyId = who === "SA" ? companyFor(who) : A;
      const name = text("Contact", 200);
      const organization = text("Org", 200);
      return {
        route: "POST /api/contacts",
        kind: flavorKind(),
        who,
        method: "POST",
        url: "/api/contacts",
        ...json({
          name: name.sent,
          organization: organization.sent,
          ...(who === "SA" ? { company_id: companyId } : {}),
          // Unique, in any case: a taken one is the hostile kind's 409.
          email: chance(0.7) ? `Party.${seq()}@Contacts.example` : "",
          kind: pick(["agency", "surety_agent", "subcontractor", "owner", "other"]),
          phone: chance(0.5) ? "+1 (303) 555-0100" : null,
        }),
        expect: 201,
        after: (res) => {
          const { contact } = res.json() as { contact: { id: string } };
          madeContacts.set(contact.id, { companyId });
          addEvent(companyId, "contact.create", "contact");
        },
      };
    },
  },
  {
    route: "PUT /api/contacts/:id",
    body: "json",
    fields: {
      text: ["name", "email", "organization", "phone", "notes"],
      enum: ["kind"],
      required: ["name"],
    },
    weight: 1,
    base: () => {
      const ids = [...madeContacts].filter(([, v]) => v.companyId === A).map(([id]) => id);
      return {
        who: "CA",
        params: { id: ids.length ? pick(ids) : crypto.randomUUID() },
        body: { name: `Contact ${seq()}`, kind: "owner" },
      };
    },
    valid: () => {
      const who = admin();
      const ids = [...madeContacts].filter(([, v]) => scopeOf(who).includes(v.companyId)).map(([id]) => id);
      if (!ids.length) return null;
      const id = pick(ids);
      const { companyId } = madeContacts.get(id)!;
      // A new name each time: the update always changes something, so it is always audited.
      const name = text("Contact", 200);
      return {
        route: "PUT /api/contacts/:id",
        kind: flavorKind(),
        who,
        method: "PUT",
        url: `/api/contacts/${id}`,
        ...json({
          name: name.sent,
          email: `renamed.${seq()}@contacts.example`,
          notes: text("Note", 2000).sent,
        }),
        expect: 200,
        after: () => {
          addEvent(companyId, "contact.update", "contact");
        },
      };
    },
  },
  {
    route: "DELETE /api/contacts/:id",
    body: "none",
    weight: 1,
    base: () => {
      const ids = [...madeContacts].filter(([, v]) => v.companyId === A).map(([id]) => id);
      return { who: "CA", params: { id: ids.length ? pick(ids) : crypto.randomUUID() } };
    },
    valid: () => {
      const who = admin();
      const ids = [...madeContacts].filter(([, v]) => scopeOf(who).includes(v.companyId)).map(([id]) => id);
      if (!ids.length) return null;
      const id = pick(ids);
      const { companyId } = madeContacts.get(id)!;
      return {
        route: "DELETE /api/contacts/:id",
        kind: "valid",
        who,
        method: "DELETE",
        url: `/api/contacts/${id}`,
        expect: 204,
        after: () => {
          madeContacts.delete(id);
          addEvent(companyId, "contact.delete", "contact");
        },
      };
    },
  },
  {
    route: "POST /api/bonds/:id/ledger",
    body: "json",
    fields: {
      text: ["reason"],
      date: ["effective_date"],
      enum: ["kind"],
      // `change` is signed (a negative number is a valid Rider): only its absence is hostile here.
      required: ["kind", "change", "effective_date", "reason"],
    },
    weight: 2,
    base: () => {
      const ids = ledgeredBonds("CA");
      return {
        who: "CA",
        params: { id: ids.length ? pick(ids) : crypto.randomUUID() },
        body: { kind: "rider", change: "100", effective_date: "2099-01-01", reason: "Change order" },
      };
    },
    valid: () => {
      const who = staff();
      const ids = ledgeredBonds(who);
      if (!ids.length) return null;
      const id = pick(ids);
      const { companyId } = model.permits.get(id)!;
      const reason = text("Rider", 500);
      const change = pick(["100", "2,500.50", 75]);
      const after = ledgered.get(id)! + toCents(String(change).replace(/,/g, ""));
      // A bond of the largest amount takes no increase (400 on the field).
      const over = after > toCents(MAX_AMOUNT);
      return {
        route: "POST /api/bonds/:id/ledger",
        kind: over ? "valid:amount-over-max" : flavorKind(),
        who,
        method: "POST",
        url: `/api/bonds/${id}/ledger`,
        ...json({
          kind: "rider",
          change,
          effective_date: "2099-01-01",
          reason: reason.sent,
        }),
        expect: over ? 400 : 200,
        after: () => {
          if (over) return;
          ledgered.set(id, after);
          addAudit(companyId, id, "ledger", "bond_ledger");
          addAudit(companyId, id, "ledger", "current_amount");
        },
      };
    },
  },
  {
    route: "POST /api/bonds/:id/documents",
    body: "attachment",
    weight: 1,
    base: () => {
      const ids = ledgeredBonds("CA");
      return ids.length ? { who: "CA", params: { id: pick(ids) } } : null;
    },
    valid: () => {
      const who = staff();
      const ids = ledgeredBonds(who);
      if (!ids.length) return null;
      const id = pick(ids);
      const { companyId } = model.permits.get(id)!;
      const name = `rider-${seq()}.pdf`;
      return {
        route: "POST /api/bonds/:id/documents",
        kind: "valid",
        who,
        method: "POST",
        url: `/api/bonds/${id}/documents`,
        ...multipart([
          { name: "file", filename: name, contentType: "application/pdf", content: `%PDF-1.4 ${seq()}` },
        ]),
        expect: 201,
        after: (res) => {
          // A ledger entry's document archives none of the bond's files.
          const { attachment } = res.json() as { attachment: { id: string } };
          model.attachments.set(attachment.id, { permitId: id, filename: name, archived: false });
          ledgerDocuments.add(attachment.id);
          addAudit(companyId, id, "upload", "ledger_document");
        },
      };
    },
  },
  {
    route: "POST /api/bonds/:id/collateral",
    body: "json",
    fields: {
      text: ["note"],
      date: ["held_since"],
      enum: ["form"],
      number: ["amount"],
      required: ["form", "amount", "held_since"],
    },
    weight: 1,
    base: () => {
      const ids = ledgeredBonds("CA");
      return {
        who: "CA",
        params: { id: ids.length ? pick(ids) : crypto.randomUUID() },
        body: { form: "cash", amount: "5000", held_since: "2030-01-01" },
      };
    },
    valid: () => {
      const who = staff();
      const ids = ledgeredBonds(who);
      if (!ids.length) return null;
      const id = pick(ids);
      const { companyId } = model.permits.get(id)!;
      const note = text("Collateral", 2000);
      return {
        route: "POST /api/bonds/:id/collateral",
        kind: flavorKind(),
        who,
        method: "POST",
        url: `/api/bonds/${id}/collateral`,
        ...json({
          form: pick(["cash", "letter_of_credit", "other"]),
          amount: "5000",
          held_since: "2030-01-01",
          note: note.sent,
        }),
        expect: 200,
        after: (res) => {
          const known = collateralOf.get(id) ?? [];
          const { collateral } = res.json() as { collateral: { id: string }[] };
          collateralOf.set(
            id,
            collateral.map((c) => c.id),
          );
          expect(collateral.length).toBe(known.length + 1);
          addAudit(companyId, id, "collateral", "collateral");
        },
      };
    },
  },
  {
    route: "PATCH /api/bonds/:id/collateral/:cid",
    body: "json",
    fields: { date: ["released_on"], required: ["released_on"] },
    weight: 1,
    base: () => {
      const held = [...collateralOf].filter(
        ([id, cs]) => cs.length && model.permits.get(id)?.companyId === A,
      );
      const [id, cs] = held.length ? pick(held) : [crypto.randomUUID(), [crypto.randomUUID()]];
      return { who: "CA", params: { id, cid: pick(cs) }, body: { released_on: "2031-01-01" } };
    },
    valid: () => {
      const who = staff();
      const held = [...collateralOf].filter(
        ([id, cs]) => cs.length && scopeOf(who).includes(model.permits.get(id)?.companyId ?? ""),
      );
      if (!held.length) return null;
      const [id, cs] = pick(held);
      // The generator's bonds stay open: collateral is released with or after the bond (409).
      return {
        route: "PATCH /api/bonds/:id/collateral/:cid",
        kind: "valid:bond-still-open",
        who,
        method: "PATCH",
        url: `/api/bonds/${id}/collateral/${pick(cs)}`,
        ...json({ released_on: "2031-01-01" }),
        expect: 409,
      };
    },
  },
  {
    route: "POST /api/bonds/:id/maintenance-bond",
    body: "json",
    fields: {
      text: ["bond_number", "permit_number", "permit_name", "agency"],
      date: ["start_date"],
      id: ["surety_id"],
      number: ["amount", "term_months"],
      required: ["amount", "term_months"],
    },
    weight: 1,
    base: () => {
      const ids = ledgeredBonds("CA");
      return {
        who: "CA",
        params: { id: ids.length ? pick(ids) : crypto.randomUUID() },
        body: { amount: "10000", term_months: 12, start_date: "2031-03-01" },
      };
    },
    valid: () => {
      const who = staff();
      const ids = ledgeredBonds(
        who,
        (id, p) => p.guaranteeType === "Performance" && !!p.projectId && !withMaintenance.has(id),
      );
      if (!ids.length) return null;
      const id = pick(ids);
      const perf = model.permits.get(id)!;
      const number = text("MB", 100);
      const name = text("Maintenance", 200);
      const bondNumber = `MBN-${seq()}`;
      return {
        route: "POST /api/bonds/:id/maintenance-bond",
        kind: flavorKind(),
        who,
        method: "POST",
        url: `/api/bonds/${id}/maintenance-bond`,
        ...json({
          amount: "10000",
          term_months: 12,
          start_date: "2031-03-01",
          bond_number: bondNumber,
          permit_number: number.sent,
          permit_name: name.sent,
          agency: "Maintenance Agency",
        }),
        expect: 201,
        after: (res) => {
          const created = (res.json() as { id: string }).id;
          const stored: PermitM = {
            companyId: perf.companyId,
            projectId: perf.projectId,
            clientId: model.projects.get(perf.projectId!)?.clientId ?? null,
            permitNumber: number.stored,
            permitName: name.stored,
            recordType: "bond",
            agency: "Maintenance Agency",
            status: "Required",
            archived: false,
            permitApplicationDate: null,
            issueDate: "2031-03-01",
            expirationDate: "2032-03-01",
            startDate: "2031-03-01",
            closeDate: null,
            phase: perf.phase,
            aka: null,
            grantorLink: null,
            bondAmount: "10000.00",
            suretyCompany: perf.suretyCompany,
            bondNumber,
            guaranteeType: "Maintenance",
            ...NEW_PERMIT_LIFECYCLE,
            responsibleUserId: perf.responsibleUserId,
            renewalLeadDays: perf.renewalLeadDays,
          };
          model.permits.set(created, stored);
          addAudit(perf.companyId, created, "create");
          bondSaved(created, stored, null);
          addAudit(perf.companyId, id, "maintenance_bond", "maintenance_bond");
          withMaintenance.add(id);
        },
      };
    },
  },

  // ----- Clients
  {
    route: "POST /api/clients",
    body: "json",
    fields: { text: ["name"], id: ["company_id"], required: ["name"] },
    weight: 2,
    base: () => ({ who: admin(), body: { name: `Client ${seq()}`, company_id: A } }),
    valid: () => {
      const who = admin();
      const named = who === "SA" ? companyFor(who) : chance(0.3) ? B : undefined;
      const companyId = who === "SA" ? named! : A;
      const existing = byCompany(model.clients, companyId).map((id) => model.clients.get(id)!.name);
      const duplicate = existing.length && chance(0.15) ? pick(existing) : null;
      const name = duplicate ? { sent: ` ${otherCase(duplicate)} `, stored: "" } : text("Client", 200);
      const clash = existing.some((n) => lower(n) === lower(name.sent));
      return {
        route: "POST /api/clients",
        kind: clash
          ? "valid:duplicate-name"
          : named === B && who !== "SA"
            ? "valid:ignored-company"
            : flavorKind(),
        who,
        method: "POST",
        url: "/api/clients",
        ...json({ name: name.sent, ...(named ? { company_id: named } : {}) }),
        expect: clash ? 409 : 201,
        after: (res) => {
          if (clash) return;
          const { client } = res.json() as { client: { id: string } };
          model.clients.set(client.id, { companyId, name: name.stored });
          addEvent(companyId, "create", "client");
        },
      };
    },
  },
  {
    route: "PUT /api/clients/:id",
    body: "json",
    fields: { text: ["name"], required: ["name"] },
    weight: 1,
    base: () => {
      const ids = byCompany(model.clients, A);
      return ids.length ? { who: "CA", params: { id: pick(ids) }, body: { name: `Client ${seq()}` } } : null;
    },
    valid: () => {
      const who = admin();
      const ids = scopeOf(who).flatMap((c) => byCompany(model.clients, c));
      if (!ids.length) return null;
      const id = pick(ids);
      const client = model.clients.get(id)!;
      const others = byCompany(model.clients, client.companyId).filter((x) => x !== id);
      const duplicate = others.length && chance(0.15) ? model.clients.get(pick(others))!.name : null;
      const name = duplicate ? { sent: duplicate, stored: duplicate } : text("Client", 200);
      return {
        route: "PUT /api/clients/:id",
        kind: duplicate ? "valid:duplicate-name" : flavorKind(),
        who,
        method: "PUT",
        url: `/api/clients/${id}`,
        ...json({ name: name.sent }),
        expect: duplicate ? 409 : 200,
        after: () => {
          if (duplicate) return;
          client.name = name.stored;
          addEvent(client.companyId, "update", "client");
        },
      };
    },
  },
  {
    route: "DELETE /api/clients/:id",
    body: "none",
    weight: 1,
    base: () => {
      const ids = byCompany(model.clients, A);
      return ids.length ? { who: "CA", params: { id: pick(ids) } } : null;
    },
    valid: () => {
      const who = admin();
      // The client-user's client stays: the generator's client-user needs it.
      const ids = scopeOf(who)
        .flatMap((c) => byCompany(model.clients, c))
        .filter((id) => id !== seenClient);
      if (!ids.length) return null;
      const id = pick(ids);
      const client = model.clients.get(id)!;
      const used =
        [...model.projects.values()].some((p) => p.clientId === id) ||
        [...model.permits.values()].some((p) => p.clientId === id && !p.projectId);
      return {
        route: "DELETE /api/clients/:id",
        kind: used ? "valid:client-in-use" : "valid",
        who,
        method: "DELETE",
        url: `/api/clients/${id}`,
        expect: used ? 409 : 204,
        after: () => {
          if (used) return;
          model.clients.delete(id);
          for (const k of model.userClients) if (k.endsWith(`/${id}`)) model.userClients.delete(k);
          addEvent(client.companyId, "delete", "client");
        },
      };
    },
  },

  // ----- Projects
  {
    route: "POST /api/projects",
    body: "json",
    fields: {
      text: ["name", "project_number", "client_name"],
      id: ["company_id"],
      enum: ["status"],
      date: ["start_date"],
      required: ["name"],
    },
    weight: 3,
    base: () => ({ who: admin(), body: { name: `Project ${seq()}`, company_id: A, status: "In Progress" } }),
    valid: () => {
      const who = admin();
      const companyId = companyFor(who);
      const name = text("Project", 200);
      const number = chance(0.6) ? text("PRJ", 100, "plain") : null;
      const clients = byCompany(model.clients, companyId);
      const clientChoice = pick(["none", "existing", "new"] as const);
      const existingName =
        clientChoice === "existing" && clients.length ? model.clients.get(pick(clients))!.name : null;
      const newName = clientChoice === "new" ? text("Client", 200) : null;
      const clientName = existingName ?? newName?.stored ?? null;
      const status = chance(0.5) ? pick(PROJECT_STATUS) : undefined;
      const start = chance(0.5) ? dateBetween(2025, 2027) : undefined;
      const body: Record<string, unknown> = {
        name: name.sent,
        project_number: number?.sent ?? "",
        client_name: existingName ? ` ${otherCase(existingName)} ` : (newName?.sent ?? null),
        ...(status ? { status } : {}),
        ...(start ? { start_date: start } : {}),
        ...(who === "SA" ? { company_id: companyId } : {}),
      };
      return {
        route: "POST /api/projects",
        kind: flavorKind(),
        who,
        method: "POST",
        url: "/api/projects",
        ...json(body),
        expect: 201,
        after: async (res) => {
          const { project } = res.json() as { project: { id: string } };
          let clientId: string | null = null;
          if (clientName) {
            const found = [...model.clients].find(
              ([, c]) => c.companyId === companyId && lower(c.name) === lower(clientName),
            );
            if (found) clientId = found[0];
            else {
              clientId = await learnClient(who, companyId, clientName);
              addEvent(companyId, "create", "client");
            }
          }
          model.projects.set(project.id, {
            companyId,
            clientId,
            name: name.stored,
            projectNumber: number?.stored || null,
            status: status ?? "Not Started",
            startDate: start ?? null,
          });
          // One permit per active template, numbered {project number or PRJ}-AUTO-{n}.
          const templates = [...model.templates.values()].filter(
            (x) => x.companyId === companyId && x.active,
          );
          await learnTemplatePermits(
            who,
            project.id,
            companyId,
            clientId,
            templates,
            number?.stored || "PRJ",
          );
          addEvent(companyId, "create", "project");
        },
      };
    },
  },
  {
    route: "PUT /api/projects/:id",
    body: "json",
    fields: {
      text: ["name", "project_number", "client_name"],
      enum: ["status"],
      date: ["start_date"],
      required: ["name"],
    },
    weight: 2,
    base: () => {
      const ids = byCompany(model.projects, A);
      return ids.length ? { who: "CA", params: { id: pick(ids) }, body: { name: `Project ${seq()}` } } : null;
    },
    valid: () => {
      const who = admin();
      const ids = scopeOf(who).flatMap((c) => byCompany(model.projects, c));
      if (!ids.length) return null;
      const id = pick(ids);
      const project = model.projects.get(id)!;
      const name = text("Project", 200);
      const number = chance(0.5) ? text("PRJ", 100, "plain").stored : project.projectNumber;
      const clients = byCompany(model.clients, project.companyId);
      const choice = pick(["same", "same", "none", "existing", "new"] as const);
      const currentName = project.clientId ? model.clients.get(project.clientId)!.name : null;
      const clientName =
        choice === "same"
          ? currentName
          : choice === "existing" && clients.length
            ? model.clients.get(pick(clients))!.name
            : choice === "new"
              ? text("Client", 200, "plain").stored
              : null;
      const status = chance(0.4) ? pick(PROJECT_STATUS) : undefined;
      const start = chance(0.3) ? pick([dateBetween(2025, 2027), "", null]) : undefined;
      return {
        route: "PUT /api/projects/:id",
        kind: flavorKind(),
        who,
        method: "PUT",
        url: `/api/projects/${id}`,
        ...json({
          name: name.sent,
          project_number: number ?? "",
          client_name: clientName,
          ...(status ? { status } : {}),
          ...(start !== undefined ? { start_date: start } : {}),
        }),
        expect: 200,
        after: async () => {
          let clientId: string | null = null;
          if (clientName) {
            const found = [...model.clients].find(
              ([, c]) => c.companyId === project.companyId && lower(c.name) === lower(clientName),
            );
            if (found) clientId = found[0];
            else {
              clientId = await learnClient(who, project.companyId, clientName);
              addEvent(project.companyId, "create", "client");
            }
          }
          if (clientId !== project.clientId) {
            for (const [pid, p] of model.permits) {
              if (p.projectId !== id) continue;
              p.clientId = clientId;
              addAudit(p.companyId, pid, "update", "client");
            }
          }
          Object.assign(project, {
            name: name.stored,
            projectNumber: number || null,
            clientId,
            ...(status ? { status } : {}),
            ...(start !== undefined ? { startDate: start || null } : {}),
          });
          addEvent(project.companyId, "update", "project");
        },
      };
    },
  },
  {
    route: "PATCH /api/projects/:id/status",
    body: "json",
    fields: { enum: ["status"], required: ["status"] },
    weight: 1,
    base: () => {
      const ids = byCompany(model.projects, A);
      return ids.length ? { who: "CA", params: { id: pick(ids) }, body: { status: "On Hold" } } : null;
    },
    valid: () => {
      const who = admin();
      const ids = scopeOf(who).flatMap((c) => byCompany(model.projects, c));
      if (!ids.length) return null;
      const id = pick(ids);
      const status = pick(PROJECT_STATUS);
      return {
        route: "PATCH /api/projects/:id/status",
        kind: "valid",
        who,
        method: "PATCH",
        url: `/api/projects/${id}/status`,
        ...json({ status }),
        expect: 200,
        after: () => {
          const p = model.projects.get(id)!;
          p.status = status;
          addEvent(p.companyId, "update", "project");
        },
      };
    },
  },
  {
    route: "DELETE /api/projects/:id",
    body: "none",
    weight: 1,
    base: () => {
      const ids = byCompany(model.projects, A);
      return ids.length ? { who: "CA", params: { id: pick(ids) } } : null;
    },
    valid: () => {
      const who = admin();
      // Keep a few projects, so that permits keep having somewhere to go.
      const ids = scopeOf(who).flatMap((c) => byCompany(model.projects, c));
      if (ids.length < 4) return null;
      const id = pick(ids);
      const project = model.projects.get(id)!;
      return {
        route: "DELETE /api/projects/:id",
        kind: "valid",
        who,
        method: "DELETE",
        url: `/api/projects/${id}`,
        expect: 204,
        after: () => {
          for (const [pid, p] of model.permits) {
            if (p.projectId !== id) continue;
            removePermit(pid);
            addAudit(p.companyId, pid, "delete");
          }
          model.projects.delete(id);
          addEvent(project.companyId, "delete", "project");
        },
      };
    },
  },

  // ----- Permit templates
  {
    route: "POST /api/templates",
    body: "json",
    fields: {
      text: ["name", "agency"],
      id: ["company_id"],
      enum: ["status"],
      bool: ["active"],
      required: ["name"],
    },
    weight: 1,
    base: () => ({ who: "CA", body: { name: `Template ${seq()}`, status: "Required", active: false } }),
    valid: () => {
      const who = admin();
      const companyId = companyFor(who);
      const existing = byCompany(model.templates, companyId).map((id) => model.templates.get(id)!.name);
      const duplicate = existing.length && chance(0.15) ? pick(existing) : null;
      const name = duplicate ? { sent: otherCase(duplicate), stored: duplicate } : text("Template", 200);
      const agency = chance(0.6) ? text("Agency", 200) : null;
      const status = pick(["Required", "N/A"]);
      const active = chance(0.3);
      return {
        route: "POST /api/templates",
        kind: duplicate ? "valid:duplicate-name" : flavorKind(),
        who,
        method: "POST",
        url: "/api/templates",
        ...json({
          name: name.sent,
          agency: agency?.sent ?? "",
          status,
          active,
          ...(who === "SA" ? { company_id: companyId } : {}),
        }),
        expect: duplicate ? 409 : 201,
        after: (res) => {
          if (duplicate) return;
          const { template } = res.json() as { template: { id: string } };
          model.templates.set(template.id, {
            companyId,
            name: name.stored,
            agency: agency?.stored ?? null,
            status,
            active,
          });
          addEvent(companyId, "create", "permit_template");
        },
      };
    },
  },
  {
    route: "PUT /api/templates/:id",
    body: "json",
    fields: { text: ["name", "agency"], required: ["name"] },
    weight: 1,
    base: () => {
      const ids = byCompany(model.templates, A);
      return ids.length
        ? { who: "CA", params: { id: pick(ids) }, body: { name: `Template ${seq()}`, agency: "" } }
        : null;
    },
    valid: () => {
      const who = admin();
      const ids = scopeOf(who).flatMap((c) => byCompany(model.templates, c));
      if (!ids.length) return null;
      const id = pick(ids);
      const tpl = model.templates.get(id)!;
      const others = byCompany(model.templates, tpl.companyId).filter((x) => x !== id);
      const duplicate = others.length && chance(0.1) ? model.templates.get(pick(others))!.name : null;
      const name = duplicate ? { sent: duplicate, stored: duplicate } : text("Template", 200);
      const agency = chance(0.5) ? text("Agency", 200) : null;
      return {
        route: "PUT /api/templates/:id",
        kind: duplicate ? "valid:duplicate-name" : flavorKind(),
        who,
        method: "PUT",
        url: `/api/templates/${id}`,
        ...json({ name: name.sent, agency: agency?.sent ?? null }),
        expect: duplicate ? 409 : 200,
        after: () => {
          if (duplicate) return;
          Object.assign(tpl, { name: name.stored, agency: agency?.stored ?? null });
          addEvent(tpl.companyId, "update", "permit_template");
        },
      };
    },
  },
  {
    route: "PATCH /api/templates/:id",
    body: "json",
    fields: { enum: ["status"], bool: ["active"] },
    weight: 1,
    base: () => {
      const ids = byCompany(model.templates, A);
      return ids.length
        ? { who: "CA", params: { id: pick(ids) }, body: { status: "N/A", active: true } }
        : null;
    },
    valid: () => {
      const who = admin();
      const ids = scopeOf(who).flatMap((c) => byCompany(model.templates, c));
      if (!ids.length) return null;
      const id = pick(ids);
      const tpl = model.templates.get(id)!;
      const change: Record<string, unknown> = {};
      if (chance(0.6)) change.status = pick(["Required", "N/A"]);
      if (!("status" in change) || chance(0.5)) change.active = chance(0.5);
      return {
        route: "PATCH /api/templates/:id",
        kind: "valid",
        who,
        method: "PATCH",
        url: `/api/templates/${id}`,
        ...json(change),
        expect: 200,
        after: () => {
          Object.assign(tpl, change);
          addEvent(tpl.companyId, "update", "permit_template");
        },
      };
    },
  },
  {
    route: "DELETE /api/templates/:id",
    body: "none",
    weight: 1,
    base: () => {
      const ids = byCompany(model.templates, A);
      return ids.length ? { who: "CA", params: { id: pick(ids) } } : null;
    },
    valid: () => {
      const who = admin();
      const ids = scopeOf(who).flatMap((c) => byCompany(model.templates, c));
      if (ids.length < 3) return null;
      const id = pick(ids);
      const tpl = model.templates.get(id)!;
      return {
        route: "DELETE /api/templates/:id",
        kind: "valid",
        who,
        method: "DELETE",
        url: `/api/templates/${id}`,
        expect: 204,
        after: () => {
          model.templates.delete(id);
          addEvent(tpl.companyId, "delete", "permit_template");
        },
      };
    },
  },
];

/** The id of a client a write just created by name (read back through the clients list). */
async function learnClient(who: Who, companyId: string, name: string): Promise<string> {
  const reader = who === "SA" || who === "SA2" ? callers.SA : callers.CA;
  const res = await reader.request({ method: "GET", url: `/api/clients?company_id=${companyId}` });
  const found = (res.json() as { clients: { id: string; name: string }[] }).clients.filter(
    (c) => lower(c.name) === lower(name) && !model.clients.has(c.id),
  );
  if (found.length !== 1) throw new Error(`expected one new client named ${name}, found ${found.length}`);
  model.clients.set(found[0]!.id, { companyId, name: name.trim() });
  return found[0]!.id;
}

/**
 * The permits a new project got from its company's active templates, read back through the project
 * dashboard: one per template (its name, agency and status), numbered {prefix}-AUTO-1..n.
 */
async function learnTemplatePermits(
  who: Who,
  projectId: string,
  companyId: string,
  clientId: string | null,
  templates: { name: string; agency: string | null; status: string }[],
  prefix: string,
) {
  const reader = who === "SA" || who === "SA2" ? callers.SA : callers.CA;
  const res = await reader.request({ method: "GET", url: `/api/projects/${projectId}/dashboard` });
  const got = (res.json() as { permits: { id: string; permit_number: string; permit_name: string }[] })
    .permits;
  const names = got.map((p) => p.permit_name).sort();
  const expected = templates.map((x) => x.name).sort();
  if (JSON.stringify(names) !== JSON.stringify(expected))
    throw new Error(`template permits ${JSON.stringify(names)}, expected ${JSON.stringify(expected)}`);
  const numbers = got.map((p) => p.permit_number).sort();
  const expectedNumbers = templates.map((_, i) => `${prefix}-AUTO-${i + 1}`).sort();
  if (JSON.stringify(numbers) !== JSON.stringify(expectedNumbers))
    throw new Error(
      `template permit numbers ${JSON.stringify(numbers)}, expected ${JSON.stringify(expectedNumbers)}`,
    );
  const startDate = today();
  for (const p of got) {
    const tpl = templates.find((x) => x.name === p.permit_name)!;
    model.permits.set(p.id, {
      companyId,
      projectId,
      clientId,
      permitNumber: p.permit_number,
      permitName: tpl.name,
      recordType: "permit",
      agency: tpl.agency,
      status: tpl.status,
      archived: false,
      permitApplicationDate: null,
      issueDate: null,
      expirationDate: null,
      startDate,
      closeDate: null,
      phase: null,
      aka: null,
      grantorLink: null,
      bondAmount: null,
      suretyCompany: null,
      bondNumber: null,
      guaranteeType: null,
      ...NEW_PERMIT_LIFECYCLE,
    });
    addAudit(companyId, p.id, "create");
  }
}

const userFields: Fields = {
  text: ["email", "firstName", "lastName", "phone", "title", "password"],
  id: ["companyId"],
  enum: ["role"],
  bool: ["mustResetPassword"],
  required: ["email", "firstName", "lastName", "role"],
};
const COMPANY_ROLES = ["company-admin", "company-user", "client-user"] as const;
type UserM = Snapshot["users"] extends Map<string, infer U> ? U : never;

/** A made user a valid request can act on: never one of the generator's own callers. */
function targetUser(who: Who, filter: (u: UserM) => boolean = () => true): string | null {
  const ids = scopeOf(who).flatMap((c) => madeUsers(c, filter));
  return ids.length ? pick(ids) : null;
}

SPECS.push(
  // ----- Users
  {
    route: "POST /api/users",
    body: "json",
    fields: { ...userFields, required: [...userFields.required!, "password"] },
    weight: 0.6,
    base: () => ({
      who: "CA",
      body: {
        email: `u-${seq()}@example.com`,
        firstName: "Una",
        lastName: "User",
        role: "company-user",
        password: "long-enough-1",
      },
    }),
    valid: () => {
      const who = admin();
      const companyId = companyFor(who);
      const emails = [...model.users.values()].map((u) => u.email);
      const duplicate = chance(0.1) ? pick(emails) : null;
      const email = duplicate ? duplicate.toUpperCase() : `User.${seq()}+x@Example.com`;
      const first = text("First", 100);
      const last = text("Last", 100);
      const role = pick(COMPANY_ROLES);
      const title = chance(0.4) ? text("Title", 100) : null;
      const must = chance(0.5) ? chance(0.5) : undefined;
      return {
        route: "POST /api/users",
        kind: duplicate ? "valid:duplicate-email" : flavorKind(),
        who,
        method: "POST",
        url: "/api/users",
        ...json({
          email,
          firstName: first.sent,
          lastName: last.sent,
          role,
          companyId: who === "SA" ? companyId : chance(0.3) ? B : A,
          phone: chance(0.5) ? "555-0100" : "",
          title: title?.sent ?? "",
          password: "long-enough-pass-1",
          ...(must === undefined ? {} : { mustResetPassword: must }),
        }),
        expect: duplicate ? 409 : 201,
        after: (res) => {
          if (duplicate) return;
          const { id, phone } = res.json() as { id: string; phone: string | null };
          model.users.set(id, {
            email: email.toLowerCase(),
            firstName: first.stored,
            lastName: last.stored,
            role,
            companyId,
            banned: false,
            phone,
            title: title?.stored ?? null,
            mustResetPassword: must ?? true,
            hasFeed: false,
          });
          addEvent(companyId, "user.create", "user");
        },
      };
    },
  },
  {
    route: "PUT /api/users/:id",
    body: "json",
    // The e-mail is not editable (not in the body); the password may be empty.
    fields: {
      text: ["firstName", "lastName", "phone", "title", "password"],
      id: ["companyId"],
      enum: ["role"],
      bool: ["mustResetPassword"],
      required: ["firstName", "lastName", "role"],
    },
    weight: 1,
    base: () => {
      const id = targetUser("CA");
      return id
        ? {
            who: "CA",
            params: { id },
            body: { firstName: "Una", lastName: "User", role: "company-user", companyId: A },
          }
        : null;
    },
    valid: () => {
      const who = admin();
      const id = targetUser(who);
      if (!id) return null;
      const target = model.users.get(id)!;
      const first = text("First", 100);
      const last = text("Last", 100);
      const role = chance(0.7) ? target.role : pick(COMPANY_ROLES);
      const companyId = who === "SA" && chance(0.2) ? pick([A, B]) : target.companyId!;
      const phone = chance(0.5) ? "555-0199" : "";
      const title = chance(0.5) ? text("Title", 100) : null;
      const password = chance(0.05) ? "changed-pass-123" : chance(0.5) ? "" : undefined;
      const must = chance(0.3) ? chance(0.5) : undefined;
      const values = {
        firstName: first.stored,
        lastName: last.stored,
        phone: phone || null,
        title: title?.stored ?? null,
        role,
        companyId,
        ...(must === undefined ? {} : { mustResetPassword: must }),
      };
      return {
        route: "PUT /api/users/:id",
        kind: flavorKind(),
        who,
        method: "PUT",
        url: `/api/users/${id}`,
        ...json({
          firstName: first.sent,
          lastName: last.sent,
          role,
          companyId: who === "SA" ? companyId : chance(0.3) ? B : A,
          phone,
          title: title?.sent ?? "",
          ...(password === undefined ? {} : { password }),
          ...(must === undefined ? {} : { mustResetPassword: must }),
        }),
        expect: 200,
        after: () => {
          const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
            (k) => values[k] !== target[k],
          );
          const moved = companyId !== target.companyId;
          if (moved || role !== "client-user") {
            for (const k of model.userClients) if (k.startsWith(`${id}/`)) model.userClients.delete(k);
          }
          if (moved) for (const k of model.recipients) if (k.endsWith(`/${id}`)) model.recipients.delete(k);
          // Feed tokens die with a password, role or company change (database triggers, migration 0005).
          if (password || role !== target.role || moved) target.hasFeed = false;
          Object.assign(target, values);
          if (changed.length || password) addEvent(companyId, "user.update", "user");
        },
      };
    },
  },
  {
    route: "DELETE /api/users/:id",
    body: "none",
    weight: 0.5,
    base: () => {
      const id = targetUser("CA");
      return id ? { who: "CA", params: { id } } : null;
    },
    valid: () => {
      const who = admin();
      const id = targetUser(who);
      if (!id) return null;
      const target = model.users.get(id)!;
      return {
        route: "DELETE /api/users/:id",
        kind: target.banned ? "valid:disabled-user" : "valid",
        who,
        method: "DELETE",
        url: `/api/users/${id}`,
        expect: target.banned ? 409 : 204,
        after: () => {
          if (target.banned) return;
          removeUser(id);
          addEvent(target.companyId, "user.delete", "user");
        },
      };
    },
  },
  {
    route: "PUT /api/users/:id/clients",
    body: "json",
    fields: { array: ["clientIds"], required: ["clientIds"] },
    weight: 0.5,
    base: () => {
      const id = targetUser("CA", (u) => u.role === "client-user");
      return id ? { who: "CA", params: { id }, body: { clientIds: [] } } : null;
    },
    valid: () => {
      const who = admin();
      const id = targetUser(who);
      if (!id) return null;
      const target = model.users.get(id)!;
      const clients = byCompany(model.clients, target.companyId!);
      const chosen = clients.filter(() => chance(0.4));
      const allowed = target.role === "client-user";
      return {
        route: "PUT /api/users/:id/clients",
        kind: allowed ? "valid" : "valid:not-a-client-user",
        who,
        method: "PUT",
        url: `/api/users/${id}/clients`,
        ...json({ clientIds: chosen }),
        expect: allowed ? 200 : 400,
        after: () => {
          if (!allowed) return;
          for (const k of model.userClients) if (k.startsWith(`${id}/`)) model.userClients.delete(k);
          for (const c of chosen) model.userClients.add(`${id}/${c}`);
          addEvent(target.companyId, "user.clients", "user");
        },
      };
    },
  },
  ...(["disable", "enable"] as const).map((action): Spec => ({
    route: `POST /api/users/:id/${action}`,
    body: "none",
    weight: 0.5,
    base: () => {
      const id = targetUser("CA");
      return id ? { who: "CA", params: { id } } : null;
    },
    valid: () => {
      const who = admin();
      const id = targetUser(who);
      if (!id) return null;
      const target = model.users.get(id)!;
      const banned = action === "disable";
      return {
        route: `POST /api/users/:id/${action}`,
        kind: target.banned === banned ? "valid:no-change" : "valid",
        who,
        method: "POST",
        url: `/api/users/${id}/${action}`,
        // The user's flags offer neither: disabling a disabled user (enabling an active one) is a 409.
        expect: target.banned === banned ? 409 : 200,
        after: () => {
          if (target.banned === banned) return;
          target.banned = banned;
          addEvent(target.companyId, `user.${action}`, "user");
        },
      };
    },
  })),
  {
    route: "POST /api/users/:id/two-factor/reset",
    body: "none",
    weight: 0.2,
    base: () => {
      const id = targetUser("CA");
      return id ? { who: "CA", params: { id } } : null;
    },
    // The generator's users never enrolled: the reset has nothing to remove.
    valid: () => {
      const who = admin();
      const id = targetUser(who);
      if (!id) return null;
      return {
        route: "POST /api/users/:id/two-factor/reset",
        kind: "valid:not-enrolled",
        who,
        method: "POST",
        url: `/api/users/${id}/two-factor/reset`,
        expect: 409,
      };
    },
  },

  // ----- Companies and logos (super-admin)
  {
    route: "POST /api/companies",
    body: "json",
    fields: {
      text: ["name", "slug", "address", "phone", "website", "contactName", "contactEmail", "timeZone"],
      required: ["name", "slug"],
    },
    weight: 0.6,
    base: () => ({ who: "SA", body: { name: `Company ${seq()}`, slug: `co-${seq()}` } }),
    valid: () => {
      const slugs = [...model.companies.values()].map((c) => c.slug);
      const duplicate = chance(0.1) ? pick(slugs) : null;
      const slug = duplicate ?? `co-${seq()}`;
      const name = text("Company", 200);
      const zone = chance(0.3) ? "Europe/Berlin" : "";
      const website = pick(["", "example.com", "https://www.example.org/about"]);
      const email = chance(0.5) ? `Office.${seq()}@Example.COM` : "";
      return {
        route: "POST /api/companies",
        kind: duplicate ? "valid:duplicate-slug" : flavorKind(),
        who: "SA",
        method: "POST",
        url: "/api/companies",
        ...json({
          name: name.sent,
          slug,
          address: "1 Main St",
          website,
          contactEmail: email,
          timeZone: zone,
        }),
        expect: duplicate ? 409 : 201,
        after: (res) => {
          if (duplicate) return;
          const { id } = res.json() as { id: string };
          model.companies.set(id, {
            name: name.stored,
            slug,
            address: "1 Main St",
            phone: null,
            website: website || null,
            contactName: null,
            contactEmail: email.toLowerCase() || null,
            timeZone: zone || t.app.ctx.config.DEFAULT_TIME_ZONE,
            hasLogo: false,
          });
          model.prefs.set(id, "1/1/1");
          addEvent(id, "company.create", "company");
        },
      };
    },
  },
  {
    route: "PUT /api/companies/:id",
    body: "json",
    fields: {
      text: ["name", "slug", "address", "phone", "website", "contactName", "contactEmail", "timeZone"],
      required: ["name", "slug"],
    },
    weight: 0.5,
    base: () => {
      const id = pick([A, B]);
      const c = model.companies.get(id)!;
      return { who: "SA", params: { id }, body: { name: c.name, slug: c.slug } };
    },
    valid: () => {
      const ids = madeCompanies();
      if (!ids.length) return null;
      const id = pick(ids);
      const c = model.companies.get(id)!;
      const name = chance(0.5) ? text("Company", 200) : { sent: c.name, stored: c.name };
      const phone = chance(0.5) ? "555-0142" : "";
      return {
        route: "PUT /api/companies/:id",
        kind: flavorKind(),
        who: "SA",
        method: "PUT",
        url: `/api/companies/${id}`,
        ...json({
          name: name.sent,
          slug: c.slug,
          address: c.address ?? "",
          phone,
          website: c.website ?? "",
          contactName: c.contactName ?? "",
          contactEmail: c.contactEmail ?? "",
          timeZone: "",
        }),
        expect: 200,
        after: () => {
          const changed = name.stored !== c.name || (phone || null) !== c.phone;
          Object.assign(c, { name: name.stored, phone: phone || null });
          if (changed) addEvent(id, "company.update", "company");
        },
      };
    },
  },
  {
    route: "DELETE /api/companies/:id",
    body: "none",
    weight: 0.3,
    base: () => {
      const ids = madeCompanies();
      return ids.length ? { who: "SA", params: { id: pick(ids) } } : null;
    },
    valid: () => {
      const ids = madeCompanies();
      if (!ids.length) return null;
      const id = pick(ids);
      return {
        route: "DELETE /api/companies/:id",
        kind: "valid",
        who: "SA",
        method: "DELETE",
        url: `/api/companies/${id}`,
        expect: 204,
        after: () => {
          removeCompany(id);
          addEvent(null, "company.delete", "company");
        },
      };
    },
  },
  {
    route: "POST /api/companies/:id/logo",
    body: "logo",
    weight: 0.4,
    base: () => ({ who: "SA", params: { id: pick([A, B, ...madeCompanies()]) } }),
    valid: () => {
      const id = pick([A, B, ...madeCompanies()]);
      return {
        route: "POST /api/companies/:id/logo",
        kind: "valid",
        who: "SA",
        method: "POST",
        url: `/api/companies/${id}/logo`,
        ...multipart([
          {
            name: "file",
            filename: pick(["logo.png", "logo.gif", "x"]),
            contentType: "image/png",
            content: PNG,
          },
        ]),
        expect: 200,
        after: () => {
          model.companies.get(id)!.hasLogo = true;
          addEvent(id, "company.logo", "company");
        },
      };
    },
  },
  {
    route: "DELETE /api/companies/:id/logo",
    body: "none",
    weight: 0.3,
    base: () => ({ who: "SA", params: { id: pick([A, B]) } }),
    valid: () => {
      const id = pick([A, B, ...madeCompanies()]);
      const company = model.companies.get(id)!;
      return {
        route: "DELETE /api/companies/:id/logo",
        kind: company.hasLogo ? "valid" : "valid:no-logo",
        who: "SA",
        method: "DELETE",
        url: `/api/companies/${id}/logo`,
        expect: 200,
        after: () => {
          if (!company.hasLogo) return;
          company.hasLogo = false;
          addEvent(id, "company.logo.remove", "company");
        },
      };
    },
  },

  // ----- Notification settings
  {
    route: "PUT /api/notifications/settings",
    body: "json",
    fields: {
      bool: ["email30Day", "email7Day", "email1Day"],
      array: ["recipientUserIds"],
      required: ["email30Day", "email7Day", "email1Day", "recipientUserIds"],
    },
    badQuery: { company_id: ["not-a-uuid", "' OR 1=1 --", "%00"] },
    weight: 1,
    base: () => ({
      who: "CA",
      body: { email30Day: true, email7Day: false, email1Day: true, recipientUserIds: [] },
    }),
    valid: () => {
      const who = admin();
      const companyId = companyFor(who);
      const staffIds = [...model.users]
        .filter(
          ([, u]) =>
            u.companyId === companyId &&
            !u.banned &&
            (u.role === "company-admin" || u.role === "company-user"),
        )
        .map(([id]) => id);
      const chosen = staffIds.filter(() => chance(0.4));
      const wrong = chance(0.1) ? [people.CL.id] : [];
      const switches = [chance(0.7), chance(0.7), chance(0.7)];
      return {
        route: "PUT /api/notifications/settings",
        kind: wrong.length ? "valid:recipient-not-staff" : "valid",
        who,
        method: "PUT",
        url: `/api/notifications/settings${who === "SA" ? `?company_id=${companyId}` : ""}`,
        ...json({
          email30Day: switches[0],
          email7Day: switches[1],
          email1Day: switches[2],
          recipientUserIds: [...chosen, ...wrong],
        }),
        expect: wrong.length ? 400 : 200,
        after: () => {
          if (wrong.length) return;
          model.prefs.set(companyId, switches.map(Number).join("/"));
          for (const k of model.recipients) if (k.startsWith(`${companyId}/`)) model.recipients.delete(k);
          for (const u of chosen) model.recipients.add(`${companyId}/${u}`);
          addEvent(companyId, "notification_settings.update", "company");
        },
      };
    },
  },
  {
    route: "POST /api/notifications/test-email",
    body: "none",
    weight: 0.2,
    base: () => ({ who: "CA" }),
    valid: () => ({
      route: "POST /api/notifications/test-email",
      kind: "valid",
      who: "CA",
      method: "POST",
      url: "/api/notifications/test-email",
      expect: 200,
    }),
  },

  // ----- The calendar feed
  ...(["POST", "DELETE"] as const).map((method): Spec => ({
    route: `${method} /api/me/calendar-token`,
    body: "none",
    weight: 0.5,
    base: () => ({ who: pick<Who>(["CA", "CU", "CL"]) }),
    valid: () => {
      const who = pick<"CA" | "CU" | "CL">(["CA", "CU", "CL"]);
      return {
        route: `${method} /api/me/calendar-token`,
        kind: "valid",
        who,
        method,
        url: "/api/me/calendar-token",
        expect: 200,
        after: () => {
          model.users.get(people[who].id)!.hasFeed = method === "POST";
          addEvent(A, method === "POST" ? "calendar_feed.create" : "calendar_feed.revoke", "user");
        },
      };
    },
  })),

  // ----- Saved views of the list
  {
    route: "POST /api/saved-views",
    body: "json",
    fields: { text: ["name"], required: ["name", "params"] },
    weight: 1,
    base: () => ({ who: "CU", body: { name: `View ${seq()}`, params: { q: "x" } } }),
    valid: () => {
      const who = pick<"CA" | "CU" | "CL" | "SA">(["CA", "CU", "CL", "SA"]);
      const userId = people[who].id;
      const mine = [...model.views.values()].filter((v) => v.userId === userId);
      if (mine.length >= 45) return null;
      const duplicate = mine.length && chance(0.1) ? pick(mine).name : null;
      const name = duplicate ? { sent: otherCase(duplicate), stored: duplicate } : text("View", 60);
      const params = savedViewParams();
      return {
        route: "POST /api/saved-views",
        kind: duplicate ? "valid:duplicate-name" : flavorKind(),
        who,
        method: "POST",
        url: "/api/saved-views",
        ...json({ name: name.sent, params: params.sent }),
        expect: duplicate ? 409 : 201,
        after: (res) => {
          if (duplicate) return;
          const { view } = res.json() as { view: { id: string } };
          model.views.set(view.id, { userId, name: name.stored, params: params.stored });
        },
      };
    },
  },
  {
    route: "PUT /api/saved-views/:id",
    body: "json",
    fields: { text: ["name"] },
    weight: 0.5,
    base: () => {
      const mine = [...model.views].filter(([, v]) => v.userId === people.CU.id);
      return mine.length
        ? { who: "CU", params: { id: pick(mine)[0] }, body: { name: `View ${seq()}` } }
        : null;
    },
    valid: () => {
      const who = pick<"CA" | "CU" | "CL">(["CA", "CU", "CL"]);
      const mine = [...model.views].filter(([, v]) => v.userId === people[who].id);
      if (!mine.length) return null;
      const [id, view] = pick(mine);
      const rename = chance(0.5);
      const name = text("View", 60);
      const params = savedViewParams();
      return {
        route: "PUT /api/saved-views/:id",
        kind: "valid",
        who,
        method: "PUT",
        url: `/api/saved-views/${id}`,
        ...json(rename ? { name: name.sent } : { params: params.sent }),
        expect: 200,
        after: () => {
          if (rename) view.name = name.stored;
          else view.params = params.stored;
        },
      };
    },
  },
  {
    route: "DELETE /api/saved-views/:id",
    body: "none",
    weight: 0.3,
    base: () => {
      const mine = [...model.views].filter(([, v]) => v.userId === people.CU.id);
      return mine.length ? { who: "CU", params: { id: pick(mine)[0] } } : null;
    },
    valid: () => {
      const who = pick<"CA" | "CU" | "CL">(["CA", "CU", "CL"]);
      const mine = [...model.views].filter(([, v]) => v.userId === people[who].id);
      if (!mine.length) return null;
      const [id] = pick(mine);
      return {
        route: "DELETE /api/saved-views/:id",
        kind: "valid",
        who,
        method: "DELETE",
        url: `/api/saved-views/${id}`,
        expect: 204,
        after: () => void model.views.delete(id),
      };
    },
  },

  // ----- CSV import
  {
    route: "POST /api/imports/permits",
    body: "csv",
    badQuery: { dry_run: ["maybe", "1' OR '1'='1", "TRUE", "%00"] },
    weight: 1,
    base: () => ({ who: "CA" }),
    valid: () => {
      const who = admin();
      const companyId = companyFor(who);
      const dryRun = chance(0.5);
      const invalidRows = chance(0.15);
      const rows = Array.from({ length: int(1, 4) }, () => ({
        project: `Imported-${seq()}`,
        number: `IMP-${seq()}`,
        name: chance(0.7) ? text("Imported permit", 200, pick(["plain", "unicode"])).stored : "",
        expiration: chance(0.5) ? "2027-05-31" : "",
        agency: chance(0.5) ? `Agency ${seq()}` : "",
      }));
      const csv =
        "project,start_date,permit_number,permit_name,expiration_date,agency\r\n" +
        rows
          .map((r) =>
            invalidRows
              ? `${r.project},,${r.number},${r.name},${r.expiration},${r.agency}`
              : `${r.project},2026-02-01,${r.number},"${r.name.replace(/"/g, '""')}",${r.expiration},${r.agency}`,
          )
          .join("\r\n");
      const named = who === "SA" ? companyId : chance(0.3) ? B : null;
      return {
        route: "POST /api/imports/permits",
        kind: invalidRows ? "valid:csv-rows-all-rejected" : dryRun ? "valid:dry-run" : "valid",
        who,
        method: "POST",
        url: `/api/imports/permits?dry_run=${dryRun}`,
        ...multipart([
          ...(named ? [{ name: "company_id", content: named }] : []),
          { name: "file", filename: "permits.csv", contentType: "text/csv", content: csv },
        ]),
        expect: 200,
        after: async (res) => {
          const result = res.json() as { inserted: unknown[]; rejected: unknown[]; company: { id: string } };
          if (result.company.id !== companyId) throw new Error(`import landed in ${result.company.id}`);
          if (
            result.inserted.length !== (invalidRows ? 0 : rows.length) ||
            result.rejected.length !== (invalidRows ? rows.length : 0)
          )
            throw new Error(`import: ${res.body.slice(0, 300)}`);
          if (dryRun) return;
          addEvent(companyId, "import", "permits");
          if (invalidRows) return;
          await learnImported(who, companyId, rows);
        },
      };
    },
  },

  // ----- Impersonation (its own super-admin: starting and stopping replace that admin's session)
  {
    route: "POST /api/impersonation",
    body: "json",
    fields: { id: ["userId"], required: ["userId"] },
    weight: 0.2,
    base: () => ({ who: "SA2", body: { userId: people.CU.id } }),
    valid: () => {
      const targets = [...model.users].filter(
        ([id, u]) => u.role !== "super-admin" && !u.banned && id !== people.SA2.id,
      );
      const [id, target] = pick(targets);
      const stop = chance(0.5);
      return {
        route: "POST /api/impersonation",
        kind: "valid",
        who: "SA2",
        method: "POST",
        url: "/api/impersonation",
        ...json({ userId: id }),
        expect: 200,
        after: async (res) => {
          addEvent(target.companyId, "impersonation.start", "user");
          if (stop) {
            const as = callerFor(t.app, mergeCookies(callers.SA2.cookie, res));
            const stopped = await as.request({ method: "DELETE", url: "/api/impersonation" });
            if (stopped.statusCode !== 200)
              throw new Error(`stopping impersonation: ${stopped.statusCode} ${stopped.body}`);
            addEvent(target.companyId, "impersonation.stop", "user");
          }
          callers.SA2 = await signIn(people.SA2);
        },
      };
    },
  },
  {
    route: "DELETE /api/impersonation",
    body: "none",
    weight: 0.2,
    base: () => ({ who: "SA2" }),
    valid: () => ({
      route: "DELETE /api/impersonation",
      kind: "valid:not-impersonating",
      who: "SA2",
      method: "DELETE",
      url: "/api/impersonation",
      expect: 409,
    }),
  },

  // ----- Signing in and out, one's own password and second factor
  {
    route: "POST /api/auth/sign-in",
    body: "json",
    fields: { text: ["email", "password"], required: ["email", "password"] },
    weight: 0.3,
    base: () => ({ who: "anon", body: { email: people.CU.email, password: "wrong-password-1" } }),
    valid: () => {
      const right = chance(0.5);
      return {
        route: "POST /api/auth/sign-in",
        kind: right ? "valid" : "valid:wrong-password",
        who: "anon",
        method: "POST",
        url: "/api/auth/sign-in",
        ...json({
          email: people.CU.email.toUpperCase(),
          password: right ? DEFAULT_PASSWORD : "wrong-password-1",
        }),
        expect: right ? 200 : 401,
      };
    },
  },
  {
    route: "POST /api/auth/sign-in/code",
    body: "json",
    fields: { text: ["code"], enum: ["method"], required: ["code"] },
    also: [401],
    weight: 0.1,
    base: () => ({ who: "anon", body: { code: "123456" } }),
    valid: () => ({
      route: "POST /api/auth/sign-in/code",
      kind: "valid:no-pending-sign-in",
      who: "anon",
      method: "POST",
      url: "/api/auth/sign-in/code",
      ...json({ code: "123456", method: "totp" }),
      expect: 401,
    }),
  },
  {
    route: "POST /api/auth/sign-out",
    body: "none",
    weight: 0.1,
    base: () => ({ who: "anon" }),
    valid: () => ({
      route: "POST /api/auth/sign-out",
      kind: "valid",
      who: "anon",
      method: "POST",
      url: "/api/auth/sign-out",
      expect: 204,
    }),
  },
  {
    route: "POST /api/me/password",
    body: "json",
    fields: { text: ["newPassword", "confirmPassword"], required: ["newPassword", "confirmPassword"] },
    weight: 0.1,
    base: () => ({ who: "CU", body: { newPassword: "new-password-9", confirmPassword: "new-password-9" } }),
    valid: () => ({
      route: "POST /api/me/password",
      kind: "valid:no-reset-pending",
      who: "CU",
      method: "POST",
      url: "/api/me/password",
      ...json({ newPassword: "new-password-9", confirmPassword: "new-password-9" }),
      expect: 409,
    }),
  },
  ...(["enable", "recovery-codes", "disable"] as const).map((step): Spec => ({
    route: `POST /api/me/two-factor/${step}`,
    body: "json",
    fields: { text: ["password"], required: ["password"] },
    base: () => ({ who: "CU", body: { password: DEFAULT_PASSWORD } }),
  })),
  {
    route: "POST /api/me/two-factor/confirm",
    body: "json",
    fields: { text: ["code"], required: ["code"] },
    base: () => ({ who: "CU", body: { code: "123456" } }),
  },
  {
    route: "POST /api/internal/reminders/run",
    body: "json",
    fields: { bool: ["dryRun"], date: ["date"] },
    weight: 0.1,
    base: () => ({ who: "anon", body: { dryRun: true, date: "2026-03-01" } }),
    valid: () => ({
      route: "POST /api/internal/reminders/run",
      kind: "valid:no-control-token",
      who: "anon",
      method: "POST",
      url: "/api/internal/reminders/run",
      ...json({ dryRun: true }),
      expect: 404,
    }),
  },
  {
    // `npm run backup`'s route on the embedded database (issue 26): only with the control token.
    route: "POST /api/internal/backups/run",
    body: "json",
    fields: { text: ["out"], required: ["out"] },
    weight: 0.1,
    base: () => ({ who: "anon", body: { out: "/tmp/permitrack-never" } }),
    valid: () => ({
      route: "POST /api/internal/backups/run",
      kind: "valid:no-control-token",
      who: "anon",
      method: "POST",
      url: "/api/internal/backups/run",
      ...json({ out: "/tmp/permitrack-never" }),
      expect: 404,
    }),
  },
);

/** Valid filters of a saved view: what is sent, and what is kept (empty values dropped, sorted). */
function savedViewParams() {
  const params: Record<string, string> = {};
  if (chance(0.7)) params.q = text("search", 200, pick(["plain", "sql", "script", "unicode"])).stored;
  if (chance(0.4)) params.show_archived = "true";
  if (chance(0.3)) params.record_type = pick(["permit", "bond"]);
  if (chance(0.3)) params.sort = pick(["permit_name", "expiration_date", "agency"]);
  if (chance(0.3)) params.dir = "desc";
  if (chance(0.2)) params.agency = "";
  const kept = Object.fromEntries(SAVED_VIEW_PARAMS.filter((k) => params[k]).map((k) => [k, params[k]!]));
  return { sent: params, stored: sortedParams(kept) };
}

/** Rows of a real import: a new project each (no client), and its permit; ids read back through the API. */
async function learnImported(
  who: Who,
  companyId: string,
  rows: { project: string; number: string; name: string; expiration: string; agency: string }[],
) {
  const reader = who === "SA" || who === "SA2" ? callers.SA : callers.CA;
  const res = await reader.request({ method: "GET", url: `/api/projects?company_id=${companyId}` });
  const listed = (res.json() as { projects: { id: string; name: string }[] }).projects;
  for (const r of rows) {
    const project = listed.find((p) => p.name === r.project);
    if (!project) throw new Error(`imported project ${r.project} not listed`);
    model.projects.set(project.id, {
      companyId,
      clientId: null,
      name: r.project,
      projectNumber: null,
      status: "Not Started",
      startDate: null,
    });
    const dash = await reader.request({ method: "GET", url: `/api/projects/${project.id}/dashboard` });
    const permits = (dash.json() as { permits: { id: string; permit_number: string }[] }).permits;
    if (permits.length !== 1 || permits[0]!.permit_number !== r.number)
      throw new Error(`imported permits of ${r.project}: ${JSON.stringify(permits)}`);
    const id = permits[0]!.id;
    model.permits.set(id, {
      companyId,
      projectId: project.id,
      clientId: null,
      permitNumber: r.number,
      permitName: r.name || r.number,
      recordType: "permit",
      agency: r.agency || null,
      status: "Required",
      archived: false,
      permitApplicationDate: null,
      issueDate: null,
      expirationDate: r.expiration || null,
      startDate: "2026-02-01",
      closeDate: null,
      phase: null,
      aka: null,
      grantorLink: null,
      bondAmount: null,
      suretyCompany: null,
      bondNumber: null,
      guaranteeType: null,
      ...NEW_PERMIT_LIFECYCLE,
    });
    addAudit(companyId, id, "import");
  }
}

// ---------------------------------------------------------------------------------------------
// Hostile requests: a base request of a route, spoilt in one way

const JSON_KINDS = [
  "wrong-type",
  "missing-field",
  "huge-string",
  "huge-body",
  "nul",
  "surrogate",
  "deep-nesting",
  "proto",
  "impossible-date",
  "sql-in-id",
  "bad-enum",
  "bad-number",
  "bad-array",
  "malformed-json",
  "non-object-json",
  "empty-body",
  "wrong-content-type",
] as const;
const BODILESS_KINDS = [
  "malformed-json",
  "proto",
  "deep-nesting",
  "nul",
  "surrogate",
  "huge-body",
  "empty-body",
  "wrong-content-type",
] as const;
const MULTIPART_KINDS = [
  "multipart-no-boundary",
  "multipart-truncated",
  "multipart-no-file",
  "multipart-empty-file",
  "multipart-garbage",
  "json-instead-of-file",
] as const;
// The logo's file name is not kept (the logo is stored under a generated key): a NUL there is ignored.
const LOGO_KINDS = ["multipart-wrong-field", "logo-not-image", "logo-too-big"] as const;
const ATTACHMENT_KINDS = ["multipart-wrong-field", "multipart-nul-file-name"] as const;
const CSV_KINDS = [
  "multipart-nul-file-name",
  "csv-unclosed-quote",
  "csv-text-after-quote",
  "csv-nul",
  "csv-not-utf8",
  "csv-utf16",
  "csv-no-header",
  "csv-too-many-columns",
  "csv-cell-too-long",
  "csv-bad-company-id",
] as const;
const ANY_ROUTE_KINDS = ["csrf-missing", "cross-origin"] as const;

const BAD_IDS = [
  "not-a-uuid",
  "1'%20OR%20'1'%3D'1",
  "%00",
  "..%2F..%2Fetc%2Fpasswd",
  "x".repeat(150),
  "%ED%A0%80",
  "12345",
  "%F0%9F%92%A9",
  "%7B%7Bid%7D%7D",
  "null",
  "00000000-0000-0000-0000-00000000000g",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
];
const BAD_DATES = [
  "2025-02-30",
  "2025-13-01",
  "2023-02-29",
  "0000-00-00",
  "2025-1-5",
  "31/12/2025",
  "2025-12-31T00:00:00Z",
  "99999-01-01",
  "tomorrow",
  "2025-04-31",
  "2025-00-10",
];
const BAD_ENUMS = [
  "permitt",
  "PERMIT",
  "Required'; --",
  "N/A ",
  "bond\u200b",
  "performance",
  "in progress",
  "Super-Admin",
  "TOTP",
];
const BAD_NUMBERS = [
  "-5",
  "1e400",
  "12.345",
  "abc",
  "9999999999999",
  "NaN",
  "Infinity",
  -1,
  1e21,
  0.001,
  "0x10",
];
const MALFORMED = [
  "{",
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  "[1,2",
  "nul",
  '{"a" 1}',
  '{"a":"\\x"}',
  '"unterminated',
  "{}}",
  '{"a":1}{"b":2}',
];
const NOT_OBJECTS = ["null", "[]", "42", '"text"', "true", "[{}]"];
const CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/xml",
  "text/csv",
  "application/octet-stream",
  "multipart/form-data; boundary=----nothing",
];

const UNPARSABLE_TYPES = [
  "application/xml",
  "application/x-www-form-urlencoded",
  "application/octet-stream",
  "image/png",
];

function nested(depth: number) {
  const open = chance(0.5) ? "[" : '{"a":';
  const close = open === "[" ? "]" : "}";
  return open.repeat(depth) + "1" + close.repeat(depth);
}

const hasParam = (route: RouteKey) => /\/:\w+/.test(route);
const allFieldsOf = (f: Fields = {}) =>
  (["text", "date", "id", "bool", "enum", "number", "array"] as const).flatMap((cat) =>
    (f[cat] ?? []).map((name) => ({ cat, name })),
  );

function kindsFor(spec: Spec): string[] {
  const kinds: string[] = [...ANY_ROUTE_KINDS];
  if (hasParam(spec.route)) kinds.push("bad-path-id", "unknown-path-id");
  if (spec.badQuery) kinds.push("bad-query");
  const f = spec.fields ?? {};
  if (spec.body === "json") {
    for (const k of JSON_KINDS) {
      if (k === "wrong-type" && !allFieldsOf(f).length) continue;
      if (k === "missing-field" && !f.required?.length) continue;
      if ((k === "huge-string" || k === "nul" || k === "surrogate") && !f.text?.length) continue;
      if (k === "impossible-date" && !f.date?.length) continue;
      if (k === "sql-in-id" && !f.id?.length) continue;
      if (k === "bad-enum" && !f.enum?.length) continue;
      if (k === "bad-number" && !f.number?.length) continue;
      if (k === "bad-array" && !f.array?.length) continue;
      kinds.push(k);
    }
  } else if (spec.body === "none") {
    kinds.push(...BODILESS_KINDS);
  } else {
    kinds.push(...MULTIPART_KINDS);
    if (spec.body === "logo") kinds.push(...LOGO_KINDS);
    if (spec.body === "attachment") kinds.push(...ATTACHMENT_KINDS);
    if (spec.body === "csv") kinds.push(...CSV_KINDS);
  }
  return kinds;
}

/** A multipart body written by hand (for what the helper would not write: NUL in a name, no boundary). */
function rawMultipart(parts: { head: string; content: Buffer | string }[], boundary = "----hostile") {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\n${p.head}\r\n\r\n`),
      Buffer.from(p.content),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

const goodFile = (spec: Spec) =>
  spec.body === "logo"
    ? { filename: "logo.png", contentType: "image/png", content: PNG }
    : spec.body === "csv"
      ? {
          filename: "p.csv",
          contentType: "text/csv",
          content: "project,start_date,permit_number\r\nX,2026-01-01,N-1\r\n",
        }
      : { filename: "plan.pdf", contentType: "application/pdf", content: "%PDF-1.4 hostile" };

function hostilePlan(spec: Spec): Plan | null {
  const base = spec.base();
  if (!base) return null;
  const kind = pick(kindsFor(spec));
  const params = { ...(base.params ?? {}) };
  let query = { ...(base.query ?? {}) };
  if (spec.body === "csv") query = { dry_run: "false", ...query };
  let payload: string | Buffer | undefined;
  let headers: Record<string, string> = {};
  let noCsrf = false;
  let expect: Plan["expect"] = "4xx";
  let path: string | null = null;

  const body = base.body ? structuredClone(base.body) : undefined;
  const fieldsOf = (cat?: keyof Fields) => allFieldsOf(spec.fields).filter((x) => !cat || x.cat === cat);
  const jsonPayload = (value: unknown) => {
    payload = JSON.stringify(value);
    headers["content-type"] = "application/json";
  };
  /** The body with one field's raw JSON text replaced (for values JSON.stringify would not write). */
  const withRaw = (name: string, raw: string) => {
    const marker = `__hostile_${seq()}__`;
    payload = JSON.stringify({ ...(body ?? {}), [name]: marker }).replace(`"${marker}"`, raw);
    headers["content-type"] = "application/json";
  };
  const file = goodFile(spec);

  switch (kind) {
    case "csrf-missing":
    case "cross-origin": {
      if (spec.body === "json") jsonPayload(body ?? {});
      else if (spec.body !== "none") ({ payload, headers } = multipart([{ name: "file", ...file }]));
      if (kind === "csrf-missing") {
        noCsrf = true;
        // The path as typed, or percent-encoded: the check follows the matched route either way.
        if (chance(0.5))
          path = urlOf(spec.route, params, query).replace(/^\/api\//, pick(["/%61pi/", "/%61%70%69/"]));
      } else headers.origin = pick(["https://evil.example", "null", "http://localhost:3000.evil.example"]);
      expect = 403;
      break;
    }
    case "bad-path-id":
    case "unknown-path-id": {
      const name = spec.route.match(/:(\w+)/)![1]!;
      params[name] = kind === "unknown-path-id" ? randomUUID() : pick(BAD_IDS);
      if (kind === "unknown-path-id") expect = 404;
      if (spec.body === "json") jsonPayload(body ?? {});
      else if (spec.body !== "none") ({ payload, headers } = multipart([{ name: "file", ...file }]));
      break;
    }
    case "bad-query": {
      const [name, values] = pick(Object.entries(spec.badQuery!));
      query[name] = decodeURIComponent(pick(values));
      if (spec.body === "json") jsonPayload(body ?? {});
      else if (spec.body !== "none") ({ payload, headers } = multipart([{ name: "file", ...file }]));
      break;
    }
    case "wrong-type": {
      const { cat, name } = pick(fieldsOf());
      const values: Record<string, unknown[]> = {
        text: [12345, true, {}, [], ["a", "b"], 1.5],
        date: [20250101, true, {}, ["2025-01-01"]],
        id: [123, true, {}, []],
        bool: ["yes", "true", 1, 0, {}, []],
        enum: [7, true, {}, ["permit"]],
        number: [{}, [], true],
        array: ["not-an-array", 5, {}],
      };
      jsonPayload({ ...body, [name]: pick(values[cat]!) });
      break;
    }
    case "missing-field": {
      const name = pick(spec.fields!.required!);
      const copy = { ...body };
      delete copy[name];
      jsonPayload(copy);
      break;
    }
    case "huge-string":
      jsonPayload({ ...body, [pick(spec.fields!.text!)]: "A".repeat(pick([5_001, 100_000, 900_000])) });
      break;
    case "huge-body":
      if (spec.body === "json") jsonPayload({ ...body, padding: "x".repeat(1_100_000 + int(0, 1000)) });
      else jsonPayload({ padding: "x".repeat(1_100_000) });
      expect = 413;
      break;
    case "nul":
    case "surrogate": {
      const bad =
        kind === "nul"
          ? pick(["\u0000", "a\u0000b", "\u0000\u0000"])
          : pick(["\ud800", "a\udfffb", "\udbff\udbff", "x\ud83d"]);
      const texts = spec.fields?.text ?? [];
      if (texts.length && chance(0.8))
        jsonPayload({ ...body, [pick(texts)]: `${String(body?.[texts[0]!] ?? "")}${bad}` });
      // ...or in a key, or in a body the route does not even read.
      else jsonPayload({ ...body, [`k${bad}`]: "value" });
      break;
    }
    case "deep-nesting": {
      const target = fieldsOf().length ? pick(fieldsOf()).name : "extra";
      withRaw(target, nested(pick([33, 100, 5_000])));
      break;
    }
    case "proto": {
      const inner = pick([
        '"__proto__":{"role":"super-admin","isAdmin":true}',
        '"constructor":{"prototype":{"polluted":true}}',
        '"nested":{"__proto__":{"polluted":true}}',
      ]);
      const rest = JSON.stringify(body ?? {}).slice(1, -1);
      payload = `{${inner}${rest ? `,${rest}` : ""}}`;
      headers["content-type"] = "application/json";
      break;
    }
    case "impossible-date":
      jsonPayload({ ...body, [pick(spec.fields!.date!)]: pick(BAD_DATES) });
      break;
    case "sql-in-id":
      jsonPayload({ ...body, [pick(spec.fields!.id!)]: pick([...SQL, "1", "../../etc/passwd"]) });
      break;
    case "bad-enum":
      jsonPayload({ ...body, [pick(spec.fields!.enum!)]: pick(BAD_ENUMS) });
      break;
    case "bad-number":
      jsonPayload({ ...body, [pick(spec.fields!.number!)]: pick(BAD_NUMBERS) });
      break;
    case "bad-array":
      jsonPayload({
        ...body,
        [pick(spec.fields!.array!)]: pick<unknown>([
          ["not-a-uuid"],
          [null],
          [1, 2],
          Array.from({ length: 1001 }, () => randomUUID()),
        ]),
      });
      break;
    case "malformed-json":
      payload = pick(MALFORMED);
      headers["content-type"] = "application/json";
      break;
    case "non-object-json":
      payload = pick(NOT_OBJECTS);
      headers["content-type"] = "application/json";
      break;
    case "empty-body":
      payload = "";
      headers["content-type"] = "application/json";
      break;
    case "wrong-content-type":
      payload = JSON.stringify(body ?? { a: 1 });
      // A route that reads no body takes text/plain (Fastify parses it) and multipart (parsed on demand)
      // without reading them, rightly: only types nothing can parse are refused there.
      headers["content-type"] = pick(spec.body === "none" ? UNPARSABLE_TYPES : CONTENT_TYPES);
      break;
    case "multipart-no-boundary":
      payload = `--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc\r\n--x--\r\n`;
      headers["content-type"] = "multipart/form-data";
      break;
    case "multipart-truncated": {
      const full = multipart([
        {
          name: "file",
          ...file,
          content: Buffer.concat([Buffer.from(file.content), Buffer.alloc(4000, 65)]),
        },
      ]);
      payload = full.payload.subarray(0, int(20, full.payload.length - 60));
      headers = full.headers;
      break;
    }
    case "multipart-no-file":
      ({ payload, headers } = multipart([{ name: "note", content: "no file here" }]));
      break;
    case "multipart-empty-file":
      ({ payload, headers } = multipart([{ name: "file", ...file, content: "" }]));
      break;
    case "multipart-nul-file-name":
      ({ payload, headers } = rawMultipart([
        {
          head: pick([
            'Content-Disposition: form-data; name="file"; filename="a\u0000b.pdf"',
            "Content-Disposition: form-data; name=\"file\"; filename*=UTF-8''a%00b.pdf",
          ]),
          content: file.content,
        },
      ]));
      break;
    case "multipart-garbage":
      payload = Buffer.from(Array.from({ length: int(10, 400) }, () => int(0, 255)));
      headers["content-type"] = "multipart/form-data; boundary=----hostile";
      break;
    case "json-instead-of-file":
      jsonPayload({ file: "not a file" });
      break;
    case "multipart-wrong-field":
      ({ payload, headers } = multipart([{ name: "upload", ...file }]));
      break;
    case "logo-not-image":
      ({ payload, headers } = multipart([
        {
          name: "file",
          filename: "logo.png",
          contentType: "image/png",
          content: pick(["GIF89a fake", "<svg onload=alert(1)>", "%PDF-1.4"]),
        },
      ]));
      expect = 415;
      break;
    case "logo-too-big":
      ({ payload, headers } = multipart([
        {
          name: "file",
          filename: "big.png",
          contentType: "image/png",
          content: Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 + 10)]),
        },
      ]));
      expect = 413;
      break;
    default: {
      // The CSV kinds: a broken file (and for csv-bad-company-id, a bad company field).
      const csv: Record<string, string | Buffer> = {
        "csv-unclosed-quote": 'project,start_date,permit_number\r\n"Tower,2026-01-01,N-1\r\n',
        "csv-text-after-quote": 'project,start_date,permit_number\r\n"Tower"x,2026-01-01,N-1\r\n',
        "csv-nul": "project,start_date,permit_number\r\nTo\u0000wer,2026-01-01,N-1\r\n",
        "csv-not-utf8": Buffer.from([
          ...Buffer.from("project,start_date,permit_number\r\nCaf"),
          0xe9,
          ...Buffer.from(",2026-01-01,N-1\r\n"),
        ]),
        "csv-utf16": Buffer.from("\ufeffproject,start_date,permit_number\r\n", "utf16le"),
        "csv-no-header": "\r\n\r\n  \r\n",
        "csv-too-many-columns": `${Array.from({ length: 101 }, (_, i) => `c${i}`).join(",")}\r\n`,
        "csv-cell-too-long": `project,start_date,permit_number\r\n${"T".repeat(10_001)},2026-01-01,N-1\r\n`,
        "csv-bad-company-id": "project,start_date,permit_number\r\nTower,2026-01-01,N-1\r\n",
      };
      ({ payload, headers } = multipart([
        ...(kind === "csv-bad-company-id" ? [{ name: "company_id", content: pick(SQL) }] : []),
        { name: "file", filename: "p.csv", contentType: "text/csv", content: csv[kind]! },
      ]));
    }
  }
  return {
    route: spec.route,
    kind,
    who: base.who,
    method: spec.route.split(" ")[0]!,
    url: path ?? urlOf(spec.route, params, query),
    payload,
    headers,
    noCsrf,
    expect,
    also: spec.also,
  };
}

// ---------------------------------------------------------------------------------------------
// Running it

interface Tally {
  sent: number;
  byKind: Map<string, Map<number, number>>;
  byRoute: Map<string, { valid: number; hostile: number }>;
  failures: string[];
  failureCount: number;
  /** `kind route → status` of every failure, counted. */
  failureClasses: Map<string, number>;
  /** Milliseconds spent per kind (answer time as seen by the test). */
  msByKind: Map<string, number>;
  /** The distinct messages hostile requests were answered with (for the log). */
  messages: Map<string, number>;
}
const tally: Tally = {
  sent: 0,
  byKind: new Map(),
  byRoute: new Map(),
  failures: [],
  failureCount: 0,
  failureClasses: new Map(),
  msByKind: new Map(),
  messages: new Map(),
};

function fail(plan: Plan, res: InjectResponse | null, why: string) {
  tally.failureCount++;
  const cls = `${plan.kind} ${plan.route} → ${res?.statusCode ?? "threw"}${why.startsWith("model") ? " (model)" : ""}`;
  tally.failureClasses.set(cls, (tally.failureClasses.get(cls) ?? 0) + 1);
  if (tally.failures.length < 60) {
    const payload =
      typeof plan.payload === "string" ? plan.payload : plan.payload ? `<${plan.payload.length} bytes>` : "";
    tally.failures.push(
      `${plan.kind} ${plan.method} ${plan.url.slice(0, 120)} as ${plan.who} [${payload.slice(0, 120)}]: ${why}` +
        (res ? ` → ${res.statusCode} ${res.body.slice(0, 200)}` : ""),
    );
  }
}

async function send(plan: Plan): Promise<void> {
  const caller = callers[plan.who];
  const headers: Record<string, string> = { ...(plan.headers ?? {}) };
  if (caller.cookie) headers.cookie = caller.cookie;
  if (!plan.noCsrf) headers[CSRF_HEADER] = CSRF_HEADER_VALUE;
  let res: InjectResponse;
  const t0 = performance.now();
  try {
    res = await t.app.inject({
      method: plan.method as InjectOptions["method"],
      url: plan.url,
      headers,
      ...(plan.payload === undefined ? {} : { payload: plan.payload }),
    });
  } catch (err) {
    fail(plan, null, `inject threw ${String(err)}`);
    return;
  }
  tally.sent++;
  tally.msByKind.set(plan.kind, (tally.msByKind.get(plan.kind) ?? 0) + performance.now() - t0);
  const statuses = tally.byKind.get(plan.kind) ?? new Map<number, number>();
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  tally.byKind.set(plan.kind, statuses);
  const perRoute = tally.byRoute.get(plan.route) ?? { valid: 0, hostile: 0 };
  perRoute[plan.expect === "4xx" || !plan.kind.startsWith("valid") ? "hostile" : "valid"]++;
  tally.byRoute.set(plan.route, perRoute);

  if (res.statusCode >= 500) return fail(plan, res, "server error");
  if (plan.expect === "4xx" || !plan.kind.startsWith("valid")) {
    const allowed =
      plan.expect === "4xx"
        ? res.statusCode >= 400 &&
          res.statusCode < 500 &&
          (![401, 403, 429].includes(res.statusCode) || !!plan.also?.includes(res.statusCode))
        : res.statusCode === plan.expect;
    if (!allowed) return fail(plan, res, `expected ${plan.expect}`);
    if (plan.expect === 403 && (res.json() as { code?: string }).code !== "CSRF")
      return fail(plan, res, "not refused as CSRF");
    const unclear = unclearError(res);
    if (unclear) return fail(plan, res, `unclear error: ${unclear}`);
    const { code, message } = res.json() as { code: string; message: string };
    // zod's own wording ("Invalid input: expected string, received undefined") is readable but not the
    // field's message: listed per route, for the schemas to give their own.
    const generic = /Invalid input|Too big|Too small|Invalid option/.test(message);
    const key = `${res.statusCode} ${code}: ${message}${generic ? `   [${plan.route}]` : ""}`;
    tally.messages.set(key, (tally.messages.get(key) ?? 0) + 1);
    return;
  }
  if (res.statusCode !== plan.expect) return fail(plan, res, `expected ${plan.expect}`);
  try {
    await plan.after?.(res);
  } catch (err) {
    fail(plan, res, `model: ${String(err)}`);
  }
}

let hostileTurn = 0;

function weighted(): Spec {
  const specs = SPECS.filter((s) => s.valid);
  const total = specs.reduce((n, s) => n + (s.weight ?? 1), 0);
  let r = rnd() * total;
  for (const s of specs) {
    r -= s.weight ?? 1;
    if (r <= 0) return s;
  }
  return specs[specs.length - 1]!;
}

describe("hostile input at scale (issue 10, item 4)", () => {
  it("covers every write route of the app", () => {
    const writes = routeTable.filter((r) => /^(POST|PUT|PATCH|DELETE) /.test(r));
    const covered = new Set(SPECS.map((s) => s.route));
    expect(
      writes.filter((r) => !covered.has(r)),
      "write routes without a spec in SPECS",
    ).toEqual([]);
    expect(
      [...covered].filter((r) => !writes.includes(r)),
      "specs without a route",
    ).toEqual([]);
  });

  it(`sends ${TOTAL} requests; every hostile one answers 4xx with a clear message, none 5xx`, async () => {
    const started = Date.now();
    while (tally.sent < TOTAL) {
      // The valid request first and alone: its effect goes into the model in order.
      for (let tries = 0; tries < 20; tries++) {
        const plan = weighted().valid!();
        if (plan) {
          await send(plan);
          break;
        }
      }
      // Hostile requests go to the routes in turn, so every route gets its share.
      const batch: Plan[] = [];
      while (batch.length < HOSTILE_PER_ROUND) {
        // A route whose plan needs a target the world may lack this turn gets a few more tries.
        const spec = SPECS[hostileTurn++ % SPECS.length]!;
        let plan: Plan | null = null;
        for (let tries = 0; tries < 5 && !plan; tries++) plan = hostilePlan(spec);
        if (plan) batch.push(plan);
      }
      await Promise.all(batch.map(send));
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const lines = [...tally.byKind]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, statuses]) => {
        const n = [...statuses.values()].reduce((x, y) => x + y, 0);
        const s = [...statuses]
          .sort(([a], [b]) => a - b)
          .map(([code, c]) => `${code}×${c}`)
          .join(" ");
        const ms = Math.round(tally.msByKind.get(kind) ?? 0);
        return `  ${kind.padEnd(34)} ${String(n).padStart(5)}  ${s.padEnd(40)} ${ms} ms`;
      });
    const valid = [...tally.byRoute.values()].reduce((n, r) => n + r.valid, 0);
    console.log(
      `hostile input (seed ${SEED}): ${tally.sent} requests in ${seconds}s, ${valid} valid, ${tally.sent - valid} hostile, ` +
        `${tally.byRoute.size} write routes, ${tally.failureCount} failures\n${lines.join("\n")}` +
        `\nanswers to hostile requests (status, code, message):\n${[...tally.messages]
          .sort(([, a], [, b]) => b - a)
          .map(([m, n]) => `  ${String(n).padStart(5)}× ${m.slice(0, 150)}`)
          .join("\n")}` +
        (tally.failureClasses.size
          ? `\nfailures by kind, route and status:\n${[...tally.failureClasses].map(([k, n]) => `  ${n}× ${k}`).join("\n")}`
          : ""),
    );
    expect(tally.failures).toEqual([]);
    expect(tally.sent).toBeGreaterThanOrEqual(TOTAL);
    const quiet = SPECS.filter((s) => (tally.byRoute.get(s.route)?.hostile ?? 0) < 20).map((s) => s.route);
    expect(quiet, "write routes that got fewer than 20 hostile requests").toEqual([]);
  }, 600_000);

  it("leaves the database holding exactly what the valid requests wrote", async () => {
    const actual = await snapshot(t.db);
    expect(diffSnapshots(model, actual)).toEqual([]);
  }, 60_000);

  it("let no request pollute an object prototype", () => {
    const probe = {} as Record<string, unknown>;
    expect(probe.polluted).toBeUndefined();
    expect(probe.isAdmin).toBeUndefined();
    expect(probe.role).toBeUndefined();
  });
});

// ----- The permit lifecycle (issue 11): renew, extend, inspect, acknowledge, close, the e-mail's link

const INSPECTION_RESULTS = ["Passed", "Failed", "Partial", "Cancelled"] as const;
const FINAL_STATUSES = ["Finaled", "Completed", "Withdrawn", "Cancelled", "Expired"] as const;
const nextYear = (d: string) => `${Number(d.slice(0, 4)) + 1}${d.slice(4)}`;
let ackSecret = "";

/** A lifecycle step on a permit the actor can edit; a closed permit refuses every step (403). */
function lifecycleStep(
  route: RouteKey,
  fields: Fields,
  weight: number,
  build: (p: PermitM) => {
    body: Record<string, unknown>;
    apply: (p: PermitM, id: string) => void;
    expect?: number;
    kind?: string;
  },
  baseBody: Record<string, unknown>,
): Spec {
  return {
    route,
    body: "json",
    fields,
    weight,
    base: () => {
      const who = staff();
      const id = pickPermit(who);
      return id ? { who, params: { id }, body: baseBody } : null;
    },
    valid: () => {
      const who = staff();
      const id = pickPermit(who);
      if (!id) return null;
      const p = model.permits.get(id)!;
      const step = build(p);
      const closed = !!p.closeDate;
      // An open bond with a ledger is closed by a Release or a Cancellation in it, not 'Close
      // Permit' (the model's ledger requests are riders: such a bond stays open).
      const bondClose = !closed && route === "POST /api/permits/:id/close" && ledgered.has(id);
      const refused = closed || bondClose;
      return {
        route,
        kind: closed
          ? "valid:closed-permit"
          : bondClose
            ? "valid:open-bond-close"
            : (step.kind ?? flavorKind()),
        who,
        method: "POST",
        url: urlOf(route, { id }),
        ...json(step.body),
        // A closed permit is read-only: the service answers 409 with the reason.
        expect: refused ? 409 : (step.expect ?? 200),
        after: () => {
          if (!refused) step.apply(p, id);
        },
      };
    },
  };
}

SPECS.push(
  lifecycleStep(
    "POST /api/permits/:id/renewals",
    {
      text: ["new_permit_number", "note"],
      date: ["new_expiration_date", "new_issue_date"],
      number: ["renewal_fee"],
      // Issue 25: the fee's and the note's 'Internal' switches.
      bool: ["renewal_fee_internal", "note_internal"],
      required: ["new_expiration_date"],
    },
    1,
    (p) => {
      const expiration = p.expirationDate ? nextYear(p.expirationDate) : "2030-06-30";
      const number = chance(0.3) ? text("PN", 100) : null;
      const issue = chance(0.3) ? dateBetween(2024, 2026) : null;
      const fee = chance(0.3) ? pick(["250", "1,250.50", 99]) : null;
      const note = chance(0.3) ? text("Note", 2000) : null;
      return {
        body: {
          new_expiration_date: expiration,
          new_issue_date: issue ?? "",
          new_permit_number: number?.sent ?? "",
          renewal_fee: fee ?? "",
          note: note?.sent ?? "",
          ...(chance(0.5) ? { renewal_fee_internal: chance(0.5), note_internal: chance(0.5) } : {}),
        },
        apply: (q, id) => {
          addAudit(q.companyId, id, "renew", "term");
          const next = {
            expirationDate: expiration,
            issueDate: issue ?? q.issueDate,
            permitNumber: number?.stored ?? q.permitNumber,
          };
          if (next.expirationDate !== q.expirationDate) addAudit(q.companyId, id, "renew", "expiration_date");
          if (next.issueDate !== q.issueDate) addAudit(q.companyId, id, "renew", "issue_date");
          if (next.permitNumber !== q.permitNumber) addAudit(q.companyId, id, "renew", "permit_number");
          if (fee !== null) addAudit(q.companyId, id, "renew", "renewal_fee");
          if (note) addAudit(q.companyId, id, "renew", "note");
          Object.assign(q, next, { termNo: q.termNo + 1, acknowledged: false });
        },
      };
    },
    { new_expiration_date: "2040-01-31" },
  ),
  lifecycleStep(
    "POST /api/permits/:id/extensions",
    {
      text: ["reason"],
      date: ["new_expiration_date"],
      bool: ["reason_internal"],
      required: ["new_expiration_date", "reason"],
    },
    1,
    (p) => {
      const expiration = p.expirationDate ? addDays(p.expirationDate, int(1, 90)) : "2030-06-30";
      const reason = text("Reason", 500);
      return {
        body: {
          new_expiration_date: expiration,
          reason: reason.sent,
          ...(chance(0.5) ? { reason_internal: chance(0.5) } : {}),
        },
        apply: (q, id) => {
          if (expiration !== q.expirationDate) addAudit(q.companyId, id, "extend", "expiration_date");
          addAudit(q.companyId, id, "extend", "reason");
          Object.assign(q, { expirationDate: expiration, acknowledged: false });
        },
      };
    },
    { new_expiration_date: "2040-01-31", reason: "Weather" },
  ),
  lifecycleStep(
    "POST /api/permits/:id/inspections",
    {
      text: ["inspection_type", "inspector", "notes"],
      date: ["date"],
      enum: ["result"],
      bool: ["notes_internal"],
      required: ["inspection_type", "date", "result"],
    },
    1,
    () => {
      const type = text("Inspection", 200);
      return {
        body: {
          inspection_type: type.sent,
          date: dateBetween(2024, 2025),
          result: pick(INSPECTION_RESULTS),
          inspector: chance(0.5) ? text("Inspector", 200).sent : "",
          notes: chance(0.3) ? text("Notes", 2000).sent : "",
          ...(chance(0.5) ? { notes_internal: chance(0.5) } : {}),
        },
        // The generator's permits keep the fixed expiry rule: an inspection moves no date.
        apply: (q, id) => addAudit(q.companyId, id, "inspection", "inspection"),
      };
    },
    { inspection_type: "Footing", date: "2025-01-02", result: "Passed" },
  ),
  lifecycleStep(
    "POST /api/permits/:id/acknowledgement",
    {},
    0.7,
    (p) => ({
      body: {},
      kind: p.acknowledged ? "valid:already-acknowledged" : "valid",
      apply: (q, id) => {
        if (q.acknowledged) return;
        q.acknowledged = true;
        addAudit(q.companyId, id, "acknowledge", "acknowledged");
      },
    }),
    {},
  ),
  lifecycleStep(
    "POST /api/permits/:id/close",
    { date: ["close_date"], enum: ["final_status"], required: ["close_date", "final_status"] },
    0.5,
    () => {
      const date = dateBetween(2025, 2026);
      const status = pick(FINAL_STATUSES);
      return {
        body: { close_date: date, final_status: status },
        apply: (q, id) => {
          addAudit(q.companyId, id, "close", "close_date");
          addAudit(q.companyId, id, "close", "final_status");
          Object.assign(q, { closeDate: date, finalStatus: status });
        },
      };
    },
    { close_date: "2025-05-05", final_status: "Finaled" },
  ),
  {
    route: "POST /api/acknowledgements/:token",
    body: "none",
    weight: 0.5,
    base: () => ({ who: "anon", params: { token: "not-a-token" } }),
    valid: () => {
      // A reminder to the company-user about one of A's permits with an expiration date.
      const ids = permitsOf(A).filter((id) => model.permits.get(id)!.expirationDate);
      if (!ids.length) return null;
      const id = pick(ids);
      const p = model.permits.get(id)!;
      const token = signAcknowledgeToken(createLinkSigner(ackSecret), {
        permitId: id,
        recipientUserId: people.CU.id,
        termNo: p.termNo,
        dueOn: p.expirationDate!,
      });
      return {
        route: "POST /api/acknowledgements/:token",
        // A closed, archived or N/A permit gets no reminders, so its link is refused like a stale one.
        kind: p.closeDate
          ? "valid:closed-permit"
          : p.archived || p.status === "N/A"
            ? "valid:not-reminded"
            : p.acknowledged
              ? "valid:already-acknowledged"
              : "valid",
        who: "anon",
        method: "POST",
        url: `/api/acknowledgements/${token}`,
        expect: p.closeDate || p.archived || p.status === "N/A" ? 404 : 200,
        after: () => {
          if (p.closeDate || p.archived || p.status === "N/A" || p.acknowledged) return;
          p.acknowledged = true;
          addAudit(p.companyId, id, "acknowledge", "acknowledged");
        },
      };
    },
  },
);

// ----- Document requests (issue 27): staff ask, the party answers by link, staff review

interface RequestM {
  companyId: string;
  permitId: string;
  token: string;
  status: "open" | "submitted" | "approved" | "revoked";
  /** Files uploaded since the last submission (Submit needs one). */
  loose: number;
  /** The files of the submission awaiting review. */
  submittedFiles: string[];
  looseFiles: string[];
  submissionId: string | null;
}
const requestsM = new Map<string, RequestM>();
/** Requests whose permit still exists, in a state, the actor may review (scope). */
const requestsIn = (
  status: RequestM["status"],
  who: Who = "anon",
  filter: (r: RequestM) => boolean = () => true,
) =>
  [...requestsM]
    .filter(
      ([, r]) =>
        r.status === status &&
        model.permits.has(r.permitId) &&
        (who === "anon" || scopeOf(who).includes(model.permits.get(r.permitId)!.companyId)) &&
        filter(r),
    )
    .map(([id]) => id);
const REQUEST_KINDS = [
  "inspection_report",
  "certificate_of_insurance",
  "continuation_certificate",
  "other",
] as const;

SPECS.push(
  {
    route: "POST /api/permits/:permitId/requests",
    body: "json",
    fields: {
      text: ["name", "organization", "title", "message"],
      date: ["dueDate"],
      id: ["contactId"],
      enum: ["documentKind"],
      number: ["expiresInDays"],
      array: ["fields"],
      required: ["documentKind", "name", "email"],
    },
    weight: 2,
    base: () => {
      const id = pickPermit("CA");
      return id
        ? {
            who: "CA",
            params: { permitId: id },
            body: { name: "Hostile Party", email: "party@example.com", documentKind: "inspection_report" },
          }
        : null;
    },
    valid: () => {
      const who = staff();
      const id = pickPermit(who);
      if (!id) return null;
      const { companyId } = model.permits.get(id)!;
      const kind = pick(REQUEST_KINDS);
      const message = text("Message", 4000);
      return {
        route: "POST /api/permits/:permitId/requests",
        kind: flavorKind(),
        who,
        method: "POST",
        url: `/api/permits/${id}/requests`,
        ...json({
          name: text("Party", 200).sent,
          email: `party-${seq()}@example.com`,
          organization: chance(0.5) ? text("Org", 200).sent : null,
          documentKind: kind,
          title: kind === "other" ? text("Title", 200).sent : undefined,
          message: message.sent,
          dueDate: chance(0.5) ? dateBetween(2026, 2030) : "",
          expiresInDays: chance(0.5) ? int(1, 90) : undefined,
        }),
        expect: 201,
        after: async (res) => {
          const { request } = res.json() as { request: { id: string } };
          const [row] = await t.db
            .select({ sealed: documentRequests.tokenSealed })
            .from(documentRequests)
            .where(eq(documentRequests.id, request.id));
          const token = unsealLinkToken(t.app.ctx.links, row!.sealed)!;
          requestsM.set(request.id, {
            companyId,
            permitId: id,
            token,
            status: "open",
            loose: 0,
            looseFiles: [],
            submittedFiles: [],
            submissionId: null,
          });
          addAudit(companyId, id, "request_sent", "document_request");
          addAudit(companyId, id, "request_sent", "request_party");
          // The party's new e-mail becomes a contact of the company, audited as one.
          addEvent(companyId, "contact.create", "contact");
        },
      };
    },
  },
  {
    route: "POST /api/request-links/:token/files",
    body: "attachment",
    weight: 2,
    base: () => {
      const ids = [...requestsIn("open"), ...requestsIn("submitted")];
      return { who: "anon", params: { token: ids.length ? requestsM.get(pick(ids))!.token : randomUUID() } };
    },
    valid: () => {
      const ids = [
        ...requestsIn("open", "anon", (r) => r.loose < 3),
        ...requestsIn("submitted", "anon", (r) => r.loose + r.submittedFiles.length < 4),
      ];
      if (!ids.length) return null;
      const r = requestsM.get(pick(ids))!;
      const name = `answer-${seq()}.pdf`;
      return {
        route: "POST /api/request-links/:token/files",
        kind: "valid",
        who: "anon",
        method: "POST",
        url: `/api/request-links/${r.token}/files`,
        ...multipart([
          { name: "file", filename: name, contentType: "application/pdf", content: `%PDF-1.4 ${seq()}` },
        ]),
        expect: 201,
        after: () => {
          // A file added while a submission awaits review joins it.
          if (r.status === "submitted") r.submittedFiles.push(name);
          else {
            r.loose++;
            r.looseFiles.push(name);
          }
          addAudit(
            model.permits.get(r.permitId)!.companyId,
            r.permitId,
            "request_file_uploaded",
            "request_file",
          );
        },
      };
    },
  },
  {
    route: "POST /api/request-links/:token/submit",
    body: "json",
    fields: {},
    weight: 1,
    // A request without files: the route refuses it even when the body is good.
    base: () => {
      const ids = requestsIn("open", "anon", (r) => r.loose === 0);
      return {
        who: "anon",
        params: { token: ids.length ? requestsM.get(pick(ids))!.token : randomUUID() },
        body: { values: {} },
      };
    },
    valid: () => {
      const ids = requestsIn("open", "anon", (r) => r.loose > 0);
      if (!ids.length) return null;
      const id = pick(ids);
      const r = requestsM.get(id)!;
      return {
        route: "POST /api/request-links/:token/submit",
        kind: "valid",
        who: "anon",
        method: "POST",
        url: `/api/request-links/${r.token}/submit`,
        ...json({ values: {} }),
        expect: 200,
        after: async () => {
          const [s] = await t.db
            .select({ id: requestSubmissions.id })
            .from(requestSubmissions)
            .where(and(eq(requestSubmissions.requestId, id), eq(requestSubmissions.status, "pending")));
          Object.assign(r, {
            status: "submitted",
            submissionId: s!.id,
            submittedFiles: [...r.looseFiles],
            looseFiles: [],
            loose: 0,
          });
          addAudit(
            model.permits.get(r.permitId)!.companyId,
            r.permitId,
            "request_submitted",
            "document_request",
          );
        },
      };
    },
  },
  {
    route: "POST /api/requests/:id/approve",
    body: "json",
    fields: { id: ["submissionId"], required: ["submissionId"] },
    weight: 1,
    // Another submission than the one awaiting review: refused (409) even when the body is good.
    base: () => {
      const ids = requestsIn("submitted", "CA");
      return {
        who: "CA",
        params: { id: ids.length ? pick(ids) : randomUUID() },
        body: { submissionId: randomUUID() },
      };
    },
    valid: () => {
      const who = staff();
      const ids = requestsIn("submitted", who);
      if (!ids.length) return null;
      const id = pick(ids);
      const r = requestsM.get(id)!;
      return {
        route: "POST /api/requests/:id/approve",
        kind: "valid",
        who,
        method: "POST",
        url: `/api/requests/${id}/approve`,
        ...json({ submissionId: r.submissionId }),
        expect: 200,
        after: async () => {
          // The files become the permit's current files together: the first archives what was current.
          const { companyId } = model.permits.get(r.permitId)!;
          const files = await t.db
            .select({ id: requestFiles.attachmentId, filename: requestFiles.filename })
            .from(requestFiles)
            .where(and(eq(requestFiles.requestId, id), isNotNull(requestFiles.attachmentId)))
            .orderBy(requestFiles.createdAt, requestFiles.id);
          for (const [i, f] of files.entries()) {
            for (const [attachmentId, a] of i > 0 ? [] : model.attachments) {
              if (a.permitId === r.permitId && !a.archived && !ledgerDocuments.has(attachmentId)) {
                a.archived = true;
                addAudit(companyId, r.permitId, "archive", "attachment");
              }
            }
            addAudit(companyId, r.permitId, "upload", "attachment");
            model.attachments.set(f.id!, { permitId: r.permitId, filename: f.filename, archived: false });
          }
          r.status = "approved";
          addAudit(companyId, r.permitId, "request_approved", "document_request");
        },
      };
    },
  },
  {
    route: "POST /api/requests/:id/reject",
    body: "json",
    fields: { id: ["submissionId"], text: ["reason"], required: ["submissionId", "reason"] },
    weight: 0.5,
    base: () => {
      const ids = requestsIn("submitted", "CA");
      return {
        who: "CA",
        params: { id: ids.length ? pick(ids) : randomUUID() },
        body: { submissionId: randomUUID(), reason: "Unsigned" },
      };
    },
    valid: () => {
      const who = staff();
      const ids = requestsIn("submitted", who);
      if (!ids.length) return null;
      const id = pick(ids);
      const r = requestsM.get(id)!;
      return {
        route: "POST /api/requests/:id/reject",
        kind: flavorKind(),
        who,
        method: "POST",
        url: `/api/requests/${id}/reject`,
        ...json({ submissionId: r.submissionId, reason: text("Reason", 2000).sent }),
        expect: 200,
        after: () => {
          Object.assign(r, { status: "open", submissionId: null, submittedFiles: [] });
          const { companyId } = model.permits.get(r.permitId)!;
          addAudit(companyId, r.permitId, "request_rejected", "document_request");
          addAudit(companyId, r.permitId, "request_rejected", "reject_reason");
        },
      };
    },
  },
  {
    route: "POST /api/requests/:id/revoke",
    body: "none",
    weight: 0.3,
    // A request already revoked: refused (409) whatever else is wrong or right.
    base: () => {
      const ids = requestsIn("revoked", "CA");
      return { who: "CA", params: { id: ids.length ? pick(ids) : randomUUID() } };
    },
    valid: () => {
      const who = staff();
      const ids = [...requestsIn("open", who), ...requestsIn("submitted", who)];
      if (!ids.length) return null;
      const id = pick(ids);
      const r = requestsM.get(id)!;
      return {
        route: "POST /api/requests/:id/revoke",
        kind: "valid",
        who,
        method: "POST",
        url: `/api/requests/${id}/revoke`,
        expect: 200,
        after: () => {
          r.status = "revoked";
          addAudit(
            model.permits.get(r.permitId)!.companyId,
            r.permitId,
            "request_revoked",
            "document_request",
          );
        },
      };
    },
  },
);

// ----- Document readings (issue 28): the new-permit form's staged file, and accepting a reading's
// suggestions into a permit. Each permit file the attachments spec uploads is enqueued for reading;
// the reader is off in tests, so its 'after' marks the reading read, suggesting an agency
// (readingsOfPermit), which the accept spec then saves through the permit's edit.

/** permitId → the reading of its current file (and the company it was read in), suggesting an agency. */
const readingsOfPermit = new Map<string, { id: string; companyId: string }[]>();

/** After an upload of a permit's file: its reading read (here by hand), suggesting an agency. */
async function markRead(permitId: string, content: string) {
  const sha = createHash("sha256").update(content).digest("hex");
  const suggestion = {
    field: "agency",
    value: "City of Readington",
    raw: "City of Readington",
    page: 1,
    snippet: "Agency: City of Readington",
    confidence: 0.9,
    ambiguous: false,
  };
  const [row] = await t.db
    .update(documentReadings)
    .set({ status: "done", suggestions: [suggestion], pagesRead: 1, pageCount: 1 })
    .where(eq(documentReadings.sha256, sha))
    .returning({ id: documentReadings.id, companyId: documentReadings.companyId });
  // A new file archives the permit's current ones: only its own reading is current.
  readingsOfPermit.set(permitId, row ? [row] : []);
}

SPECS.push(
  {
    route: "POST /api/document-readings",
    body: "attachment",
    weight: 1,
    base: () => ({ who: pick(["CA", "CU"] as const) }),
    valid: () => {
      const who = staff();
      return {
        route: "POST /api/document-readings",
        kind: "valid",
        who,
        method: "POST",
        url: "/api/document-readings",
        ...multipart([
          ...(who === "SA" ? [{ name: "company_id", content: pick([A, B]) }] : []),
          {
            name: "file",
            filename: `scan-${seq()}.pdf`,
            contentType: "application/pdf",
            content: `%PDF-1.4 staged ${seq()}`,
          },
        ]),
        // Nothing the model holds: a reading, and a stored file removed once read.
        expect: 202,
      };
    },
  },
  {
    route: "POST /api/permits/:id/accept-suggestions",
    body: "json",
    fields: { id: ["reading_id"], array: ["fields"], required: ["reading_id", "fields"] },
    weight: 1,
    base: () => {
      const who = staff();
      const id = pickPermit(who);
      if (!id) return null;
      const reading = readingsOfPermit.get(id)?.[0]?.id ?? randomUUID();
      return {
        who,
        params: { id },
        body: { reading_id: reading, fields: [{ field: "agency", value: "City of Readington" }] },
      };
    },
    valid: () => {
      const who = staff();
      const ids = scopeOf(who)
        .flatMap(permitsOf)
        // A permit moved to another company since: its file's reading is the old company's (404).
        .filter((id) => {
          const p = model.permits.get(id)!;
          return p.expirationDate && readingsOfPermit.get(id)?.some((r) => r.companyId === p.companyId);
        });
      if (!ids.length) return null;
      const id = pick(ids);
      const current = model.permits.get(id)!;
      // The person may edit the value: it is saved as sent, validated like the form.
      const agency = pick(["City of Readington", `City of Readington ${seq()}`]);
      return {
        route: "POST /api/permits/:id/accept-suggestions",
        kind: "valid",
        who,
        method: "POST",
        url: `/api/permits/${id}/accept-suggestions`,
        ...json({
          reading_id: readingsOfPermit.get(id)!.find((r) => r.companyId === current.companyId)!.id,
          fields: [{ field: "agency", value: agency }],
        }),
        expect: 200,
        after: () => {
          if (current.agency !== agency) addAudit(current.companyId, id, "update", "agency");
          model.permits.set(id, { ...current, agency });
        },
      };
    },
  },
);
