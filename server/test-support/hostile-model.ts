import {
  attachments,
  auditEvents,
  clients,
  comments,
  companies,
  companyPreferences,
  permitAudit,
  permits,
  permitTemplates,
  projects,
  savedViews,
  userClients,
  userNotifications,
  users,
} from "../db/schema.ts";
import type { Db } from "../db/client.ts";

/**
 * What the database holds, in the columns a write can change, normalised so that a model kept by a
 * test can be compared with it exactly: rows keyed by id, the append-only and id-less tables
 * (comments, audit) as sorted lists of their meaningful columns.
 */
export interface Snapshot {
  companies: Map<string, CompanyM>;
  users: Map<string, UserM>;
  clients: Map<string, { companyId: string; name: string }>;
  userClients: Set<string>;
  projects: Map<string, ProjectM>;
  permits: Map<string, PermitM>;
  /** `permitId|internal|text` */
  comments: string[];
  attachments: Map<string, { permitId: string; filename: string; archived: boolean }>;
  templates: Map<string, TemplateM>;
  /** `companyId|permitId|action|field` */
  permitAudit: string[];
  /** `companyId|action|entityType` */
  events: string[];
  /** companyId → "30/7/1" switches as 0/1 */
  prefs: Map<string, string>;
  /** `companyId/userId` */
  recipients: Set<string>;
  views: Map<string, { userId: string; name: string; params: string }>;
}

export interface CompanyM {
  name: string;
  slug: string;
  address: string | null;
  phone: string | null;
  website: string | null;
  contactName: string | null;
  contactEmail: string | null;
  timeZone: string;
  hasLogo: boolean;
}

export interface UserM {
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  companyId: string | null;
  banned: boolean;
  phone: string | null;
  title: string | null;
  mustResetPassword: boolean;
  hasFeed: boolean;
}

export interface ProjectM {
  companyId: string;
  clientId: string | null;
  name: string;
  projectNumber: string | null;
  status: string;
  startDate: string | null;
}

export interface TemplateM {
  companyId: string;
  name: string;
  agency: string | null;
  status: string;
  active: boolean;
}

/** The columns of a permit the form (and so the audit) covers, under their TypeScript names. */
export const PERMIT_COLUMNS = {
  companyId: "company_id",
  projectId: "project_id",
  clientId: "client_id",
  permitNumber: "permit_number",
  permitName: "permit_name",
  recordType: "record_type",
  agency: "agency",
  status: "status",
  archived: "archived",
  permitApplicationDate: "permit_application_date",
  issueDate: "issue_date",
  expirationDate: "expiration_date",
  startDate: "start_date",
  closeDate: "close_date",
  phase: "phase",
  aka: "aka",
  grantorLink: "grantor_link",
  bondAmount: "bond_amount",
  suretyCompany: "surety_company",
  bondNumber: "bond_number",
  guaranteeType: "guarantee_type",
} as const;
/** What the lifecycle (issue 11) adds to a permit: terms, acknowledgement, closing, the form's expiry settings. */
export interface PermitLifecycleM {
  responsibleUserId: string | null;
  expiryRule: string;
  expiryDays: number | null;
  renewalLeadDays: number | null;
  termNo: number;
  acknowledged: boolean;
  finalStatus: string | null;
}
export type PermitM = {
  -readonly [K in keyof typeof PERMIT_COLUMNS]: K extends "archived" ? boolean : string | null;
} & {
  companyId: string;
  permitNumber: string;
  permitName: string;
  status: string;
  recordType: string;
} & PermitLifecycleM;

/** A new permit's lifecycle columns. */
export const NEW_PERMIT_LIFECYCLE: PermitLifecycleM = {
  responsibleUserId: null,
  expiryRule: "fixed",
  expiryDays: null,
  renewalLeadDays: null,
  termNo: 1,
  acknowledged: false,
  finalStatus: null,
};

const sortedParams = (params: unknown) =>
  JSON.stringify(Object.fromEntries(Object.entries((params ?? {}) as Record<string, string>).sort()));

export const auditKey = (companyId: string, permitId: string, action: string, field: string | null) =>
  `${companyId}|${permitId}|${action}|${field ?? ""}`;
export const eventKey = (companyId: string | null, action: string, entityType: string) =>
  `${companyId ?? ""}|${action}|${entityType}`;
export const commentKey = (permitId: string, internal: boolean, text: string) =>
  `${permitId}|${internal ? "internal" : "public"}|${text}`;

/** Reads the snapshot from the database. */
export async function snapshot(db: Db): Promise<Snapshot> {
  const [cos, us, cls, ucs, prs, ps, cms, ats, tps, pas, evs, prefs, recs, vws] = await Promise.all([
    db.select().from(companies),
    db.select().from(users),
    db.select().from(clients),
    db.select().from(userClients),
    db.select().from(projects),
    db.select().from(permits),
    db.select().from(comments),
    db.select().from(attachments),
    db.select().from(permitTemplates),
    db.select().from(permitAudit),
    db.select().from(auditEvents),
    db.select().from(companyPreferences),
    db.select().from(userNotifications),
    db.select().from(savedViews),
  ]);
  const permitOf = (p: (typeof ps)[number]): PermitM => {
    const out = {} as Record<string, unknown>;
    for (const key of Object.keys(PERMIT_COLUMNS)) out[key] = (p as Record<string, unknown>)[key] ?? null;
    const lifecycle: PermitLifecycleM = {
      responsibleUserId: p.responsibleUserId,
      expiryRule: p.expiryRule,
      expiryDays: p.expiryDays,
      renewalLeadDays: p.renewalLeadDays,
      termNo: p.termNo,
      acknowledged: !!p.acknowledgedAt,
      finalStatus: p.finalStatus,
    };
    return { ...(out as Omit<PermitM, keyof PermitLifecycleM>), ...lifecycle } as PermitM;
  };
  return {
    companies: new Map(
      cos.map((c) => [
        c.id,
        {
          name: c.name,
          slug: c.slug,
          address: c.address,
          phone: c.phone,
          website: c.website,
          contactName: c.contactName,
          contactEmail: c.contactEmail,
          timeZone: c.timeZone,
          hasLogo: !!c.logoKey,
        },
      ]),
    ),
    users: new Map(
      us.map((u) => [
        u.id,
        {
          email: u.email,
          firstName: u.firstName,
          lastName: u.lastName,
          role: u.role,
          companyId: u.companyId,
          banned: u.banned,
          phone: u.phone,
          title: u.title,
          mustResetPassword: u.mustResetPassword,
          hasFeed: !!u.calendarToken,
        },
      ]),
    ),
    clients: new Map(cls.map((c) => [c.id, { companyId: c.companyId, name: c.name }])),
    userClients: new Set(ucs.map((l) => `${l.userId}/${l.clientId}`)),
    projects: new Map(
      prs.map((p) => [
        p.id,
        {
          companyId: p.companyId,
          clientId: p.clientId,
          name: p.name,
          projectNumber: p.projectNumber,
          status: p.status,
          startDate: p.startDate,
        },
      ]),
    ),
    permits: new Map(ps.map((p) => [p.id, permitOf(p)])),
    comments: cms.map((c) => commentKey(c.permitId, c.isInternal, c.text)).sort(),
    attachments: new Map(
      ats.map((a) => [a.id, { permitId: a.permitId, filename: a.filename, archived: a.archived }]),
    ),
    templates: new Map(
      tps.map((x) => [
        x.id,
        { companyId: x.companyId, name: x.name, agency: x.agency, status: x.status, active: x.active },
      ]),
    ),
    permitAudit: pas.map((a) => auditKey(a.companyId, a.permitId, a.action, a.field)).sort(),
    events: evs.map((e) => eventKey(e.companyId, e.action, e.entityType)).sort(),
    prefs: new Map(
      prefs.map((p) => [p.companyId, [p.email30Day, p.email7Day, p.email1Day].map(Number).join("/")]),
    ),
    recipients: new Set(recs.map((r) => `${r.companyId}/${r.userId}`)),
    views: new Map(
      vws.map((v) => [v.id, { userId: v.userId, name: v.name, params: sortedParams(v.params) }]),
    ),
  };
}

export { sortedParams };

/** Differences between two snapshots, as readable lines (empty when they are equal). */
export function diffSnapshots(expected: Snapshot, actual: Snapshot, limit = 40): string[] {
  const out: string[] = [];
  const maps: (keyof Snapshot)[] = [
    "companies",
    "users",
    "clients",
    "projects",
    "permits",
    "attachments",
    "templates",
    "prefs",
    "views",
  ];
  for (const name of maps) {
    const e = expected[name] as Map<string, unknown>;
    const a = actual[name] as Map<string, unknown>;
    for (const [id, value] of e) {
      if (!a.has(id)) out.push(`${name} ${id}: expected, missing in the database ${JSON.stringify(value)}`);
      else if (JSON.stringify(a.get(id)) !== JSON.stringify(value))
        out.push(`${name} ${id}: expected ${JSON.stringify(value)}, database ${JSON.stringify(a.get(id))}`);
    }
    for (const [id, value] of a) {
      if (!e.has(id)) out.push(`${name} ${id}: in the database, not expected ${JSON.stringify(value)}`);
    }
  }
  for (const name of ["userClients", "recipients"] as const) {
    for (const k of expected[name]) if (!actual[name].has(k)) out.push(`${name} ${k}: expected, missing`);
    for (const k of actual[name]) if (!expected[name].has(k)) out.push(`${name} ${k}: not expected`);
  }
  for (const name of ["comments", "permitAudit", "events"] as const) {
    const count = (xs: string[]) =>
      xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());
    const e = count(expected[name]);
    const a = count(actual[name]);
    for (const key of new Set([...e.keys(), ...a.keys()])) {
      if ((e.get(key) ?? 0) !== (a.get(key) ?? 0))
        out.push(`${name} "${key}": expected ${e.get(key) ?? 0}, database ${a.get(key) ?? 0}`);
    }
  }
  return out.slice(0, limit).concat(out.length > limit ? [`... and ${out.length - limit} more`] : []);
}

/** A deep copy of a snapshot, for the model to evolve. */
export function cloneSnapshot(s: Snapshot): Snapshot {
  const copyMap = <V>(m: Map<string, V>) => new Map([...m].map(([k, v]) => [k, structuredClone(v)]));
  return {
    companies: copyMap(s.companies),
    users: copyMap(s.users),
    clients: copyMap(s.clients),
    userClients: new Set(s.userClients),
    projects: copyMap(s.projects),
    permits: copyMap(s.permits),
    comments: [...s.comments],
    attachments: copyMap(s.attachments),
    templates: copyMap(s.templates),
    permitAudit: [...s.permitAudit],
    events: [...s.events],
    prefs: new Map(s.prefs),
    recipients: new Set(s.recipients),
    views: copyMap(s.views),
  };
}
