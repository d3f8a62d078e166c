import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import {
  attachments,
  bondCollateral,
  bondLedgerEntries,
  clients,
  contacts,
  permitContacts,
  comments,
  companies,
  permits,
  permitTemplates,
  projects,
  savedViews,
  sureties,
  userClients,
  users,
} from "../db/schema.ts";
import { makeDocumentRequest } from "./document-requests.ts";
import type { TestContext } from "./harness.ts";
import { multipart } from "./multipart.ts";
import { addDays, todayIn } from "../../shared/domain/dates.ts";
import { COLLATERAL_FORM_LABELS } from "../../shared/domain/bonds.ts";
import { callerFor, mergeCookies, type Caller } from "./security.ts";

/**
 * The actors of the permission matrix (issue 10, item 3). Everyone but `OA` belongs to company A
 * ("Acme Builders"); `OA` is the admin of company B ("Bayline Civil").
 */
export const ACTORS = ["anon", "SA", "CA", "CU", "CL", "OA", "disabled", "reset", "tfa", "imp"] as const;
export type ActorKey = (typeof ACTORS)[number];

export const ACTOR_NAMES: Record<ActorKey, string> = {
  anon: "anonymous",
  SA: "super-admin",
  CA: "company-admin",
  CU: "company-user",
  CL: "client-user",
  OA: "another company's admin",
  disabled: "a disabled user",
  reset: "a user who must reset the password",
  tfa: "a super-admin who has not set up two-factor sign-in",
  imp: "a super-admin impersonating the client-user",
};

/**
 * The objects a route is tried on, seen from company A: a record of company A outside any client
 * (`own`), one of the client-user's client (`ownClient`), one of another client of A
 * (`otherClient`), one of company B (`other`). `none` for routes without an object.
 */
export const OBJECTS = ["own", "ownClient", "otherClient", "other", "none"] as const;
export type ObjectKey = (typeof OBJECTS)[number];
export type RecordKey = Exclude<ObjectKey, "none">;

/**
 * A PNG of one pixel, well-formed (every chunk's length and CRC right): pdfkit draws it as the
 * compliance packet's logo. (The copy here until now had a stray byte after its image data, which
 * pdfkit's PNG reader spent seconds of CPU on before giving up: most of the matrix's run time went
 * on the packet rows.)
 */
export const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082",
  "hex",
);

type UserRow = Awaited<ReturnType<TestContext["make"]["user"]>>;

export interface MatrixWorld {
  A: string;
  B: string;
  companyName: { A: string; B: string };
  seenClient: { id: string; name: string };
  hiddenClient: { id: string; name: string };
  bClient: { id: string; name: string };
  /** One shared (read-only) record of each kind per object. */
  projects: Record<RecordKey, { id: string; name: string; clientName: string | null; companyId: string }>;
  permits: Record<RecordKey, string>;
  attachments: Record<RecordKey, string>;
  clientsByObject: Record<"ownClient" | "otherClient" | "other", string>;
  templates: Record<"own" | "other", string>;
  /** Issue 12: a bond per object (with its original ledger entry and collateral), a surety per company. */
  bonds: Record<RecordKey, string>;
  /**
   * A released bond of the client-user's client whose collateral staff added and released through
   * the API, so its audit trail holds both collateral entries ("Letter of Credit 77777.77 held
   * since ..."), which only staff may read.
   */
  collateralBond: string;
  sureties: Record<"own" | "other", string>;
  /**
   * Issue 27: a contact per company, listed on every shared permit of its company (the client-user's
   * included): its e-mail and phone are for staff only (the leak scan looks for both).
   */
  contacts: Record<"own" | "other", string>;
  users: Record<"own" | "other", string>;
  actors: Record<ActorKey, Caller>;
  /** The user behind each actor (the impersonated client-user for `imp`). */
  userIds: Record<Exclude<ActorKey, "anon">, string>;
  people: Record<"SA" | "SA2" | "CA" | "CU" | "CL" | "OA" | "reset" | "tfa", UserRow>;
  /** Company of each company-bound actor. */
  companyOf: Partial<Record<ActorKey, string>>;
  /** Whose credentials the sign-in row sends. */
  signInTarget: { email: string; password: string };
  /** A working calendar feed token of a company-user of A. */
  feedToken: string;
  /** Before-impersonation cookie of the last `imp` made by `freshActor`. */
  impBefore: string;
}

let n = 0;
/** Unique, fixed-length names: one never contains another, so a leak scan cannot mistake them. */
export const uniq = (prefix: string) =>
  `${prefix}-${randomUUID().slice(0, 8)}-${String(++n).padStart(4, "0")}`;

/** Signs in (the one place to adapt when sign-in grows a step). */
export async function signIn(t: TestContext, user: { email: string; password: string }): Promise<Caller> {
  const api = await t.signIn(user);
  return callerFor(t.app, api.cookie);
}

async function json(res: { statusCode: number; body: string; json(): unknown }, what: string) {
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown>;
}

/**
 * The matrix's data: companies A and B; in A the seen client (the client-user's), a hidden client
 * and a project without client; a project, permits (current, archived, N/A, In Waiting, long
 * expired, without expiry), public and internal comments (internal texts are unique markers a
 * client-user must never receive), attachments, templates, logos and users of every kind.
 */
export async function buildMatrixWorld(t: TestContext): Promise<MatrixWorld> {
  const w = { companyName: { A: "Acme Builders", B: "Bayline Civil" } } as MatrixWorld;
  const today = todayIn("UTC");
  const A = (await t.make.company({ name: w.companyName.A, slug: uniq("acme") })).id;
  const B = (await t.make.company({ name: w.companyName.B, slug: uniq("bayline") })).id;
  Object.assign(w, { A, B });
  w.seenClient = await t.make.client(A, "Seen Client");
  w.hiddenClient = await t.make.client(A, "Hidden Client");
  w.bClient = await t.make.client(B, "Bayline Client");
  w.clientsByObject = { ownClient: w.seenClient.id, otherClient: w.hiddenClient.id, other: w.bClient.id };

  const project = async (companyId: string, client: { id: string; name: string } | null) => {
    const row = await t.make.project({ companyId, clientId: client?.id ?? null, name: uniq("Project") });
    return { id: row.id, name: row.name, clientName: client?.name ?? null, companyId };
  };
  w.projects = {
    own: await project(A, null),
    ownClient: await project(A, w.seenClient),
    otherClient: await project(A, w.hiddenClient),
    other: await project(B, w.bClient),
  };

  // People. Passwords are the factories' default, so sign-ins share one argon2 hash.
  const person = (
    role: "super-admin" | "company-admin" | "company-user" | "client-user",
    companyId?: string,
  ) =>
    t.make.user({
      role,
      companyId: companyId ?? null,
      firstName: role,
      lastName: uniq("Person"),
      email: `${uniq(role)}@example.com`,
      ...(role === "client-user" ? { clientIds: [w.seenClient.id] } : {}),
    });
  w.people = {
    SA: await person("super-admin"),
    SA2: await person("super-admin"),
    CA: await person("company-admin", A),
    CU: await person("company-user", A),
    CL: await person("client-user", A),
    OA: await person("company-admin", B),
    reset: await t.make.user({ role: "company-user", companyId: A, mustResetPassword: true }),
    tfa: await t.make.user({ role: "super-admin", twoFactor: false }),
  };
  const disabledUser = await person("company-user", A);
  const signInTarget = await person("company-user", A);
  w.signInTarget = { email: signInTarget.email, password: signInTarget.password };

  const CA = await signIn(t, w.people.CA);
  const OA = await signIn(t, w.people.OA);

  // Permits: one shared per object, with comments (public and internal) and an attachment each.
  const permit = async (object: RecordKey, over: Partial<typeof permits.$inferInsert> = {}) => {
    const p = w.projects[object];
    return (
      await t.make.permit({
        companyId: p.companyId,
        projectId: p.id,
        permitNumber: uniq("MXP"),
        permitName: uniq("Matrix permit"),
        agency: p.companyId === A ? "Acme County Agency" : "Bayline Harbour Agency",
        expirationDate: addDays(today, 90),
        ...over,
      })
    ).id;
  };
  w.permits = {
    own: await permit("own"),
    ownClient: await permit("ownClient"),
    otherClient: await permit("otherClient"),
    other: await permit("other"),
  };
  // Records the lists must treat right: hidden (archived, N/A), not required, expired long ago, no
  // expiry, closed, with a renewal lead time (a 'Renew by' date).
  for (const object of ["ownClient", "otherClient", "other"] as const) {
    await permit(object, { archived: true });
    await permit(object, { status: "N/A" });
    await permit(object, { status: "In Waiting", agency: uniq("Agency") });
    await permit(object, { expirationDate: addDays(today, -400) });
    await permit(object, { expirationDate: null, recordType: "bond", guaranteeType: "Performance" });
    await permit(object, { closeDate: addDays(today, -5), finalStatus: "Finaled" });
    await permit(object, { renewalLeadDays: 30 });
  }
  w.attachments = {} as MatrixWorld["attachments"];
  for (const object of ["own", "ownClient", "otherClient", "other"] as const) {
    const api = object === "other" ? OA : CA;
    const id = w.permits[object];
    await json(
      await api.request({
        method: "POST",
        url: `/api/permits/${id}/comments`,
        payload: { text: uniq("Public note"), isInternal: false },
      }),
      "public comment",
    );
    await json(
      await api.request({
        method: "POST",
        url: `/api/permits/${id}/comments`,
        payload: { text: uniq("INTERNAL-NOTE"), isInternal: true },
      }),
      "internal comment",
    );
    const uploaded = await json(
      await api.request({
        method: "POST",
        url: `/api/permits/${id}/attachments`,
        ...multipart([
          { name: "file", filename: `${uniq("plan")}.txt`, contentType: "text/plain", content: "plan" },
        ]),
      }),
      "attachment",
    );
    w.attachments[object] = (uploaded.attachment as { id: string }).id;
  }

  // Bonds (issue 12): a surety per company with limits, a bond per object with its ledger's
  // original entry and collateral. The limit and the collateral amount are markers a client-user
  // must never receive.
  w.sureties = {
    own: await makeSurety(t, A),
    other: await makeSurety(t, B),
  };
  w.bonds = {} as MatrixWorld["bonds"];
  for (const object of ["own", "ownClient", "otherClient", "other"] as const) {
    const p = w.projects[object];
    w.bonds[object] = await makeBond(t, {
      companyId: p.companyId,
      projectId: p.id,
      suretyId: w.sureties[object === "other" ? "other" : "own"],
      collateral: true,
    });
  }

  w.contacts = {
    own: (
      await t.make.contact({
        companyId: A,
        name: uniq("Contact"),
        email: `${uniq("contact")}@outside.example`,
        phone: CONTACT_PHONE_MARKER,
      })
    ).id,
    other: (
      await t.make.contact({
        companyId: B,
        name: uniq("Contact"),
        email: `${uniq("contact")}@outside.example`,
        phone: CONTACT_PHONE_MARKER,
      })
    ).id,
  };
  for (const object of ["own", "ownClient", "otherClient", "other"] as const) {
    const companyId = w.projects[object].companyId;
    const contactId = w.contacts[object === "other" ? "other" : "own"];
    for (const permitId of [w.permits[object], w.bonds[object]]) {
      await t.db.insert(permitContacts).values({ companyId, permitId, contactId });
    }
  }

  w.collateralBond = await collateralThroughTheApi(t, CA, w.projects.ownClient, w.sureties.own);

  w.templates = {
    own: (await t.make.template({ companyId: A, name: uniq("Template"), active: false })).id,
    other: (await t.make.template({ companyId: B, name: uniq("Template"), active: false })).id,
  };
  w.users = {
    own: (await person("company-user", A)).id,
    other: (await person("company-user", B)).id,
  };

  // Logos, stored as the logo route stores them (that route is itself a row of the matrix).
  for (const id of [A, B]) {
    const { key, size, sha256 } = await t.app.ctx.storage.put(
      `companies/${id}/logos`,
      Readable.from(PNG),
      PNG.length,
    );
    await t.db
      .update(companies)
      .set({ logoKey: key, logoContentType: "image/png", logoSha256: sha256, logoSize: size })
      .where(eq(companies.id, id));
  }

  // The calendar feed row's token belongs to a user who is not an actor (actors rotate their own).
  const feedOwner = await signIn(t, await person("company-user", A));
  const feed = await json(
    await feedOwner.request({ method: "POST", url: "/api/me/calendar-token" }),
    "calendar token",
  );
  w.feedToken = /\/api\/calendar\/([^/]+)\.ics$/.exec(String(feed.url))![1]!;

  // The actors.
  const disabled = await signIn(t, disabledUser);
  await t.db.update(users).set({ banned: true }).where(eq(users.id, disabledUser.id));
  w.actors = {
    anon: callerFor(t.app, ""),
    SA: await signIn(t, w.people.SA),
    CA,
    CU: await signIn(t, w.people.CU),
    CL: await signIn(t, w.people.CL),
    OA,
    disabled,
    reset: await signIn(t, w.people.reset),
    tfa: await signIn(t, w.people.tfa),
    imp: await impersonatingClientUser(t, w),
  };
  w.userIds = {
    SA: w.people.SA.id,
    CA: w.people.CA.id,
    CU: w.people.CU.id,
    CL: w.people.CL.id,
    OA: w.people.OA.id,
    disabled: disabledUser.id,
    reset: w.people.reset.id,
    tfa: w.people.tfa.id,
    imp: w.people.CL.id,
  };
  w.companyOf = { CA: A, CU: A, CL: A, OA: B, disabled: A, reset: A, imp: A };
  return w;
}

/** The second super-admin viewing the app as a client-user (the world's, or `target`), in a session of its own. */
export async function impersonatingClientUser(
  t: TestContext,
  w: MatrixWorld,
  target?: { id: string },
): Promise<Caller> {
  const admin = await signIn(t, w.people.SA2);
  const res = await admin.request({
    method: "POST",
    url: "/api/impersonation",
    payload: { userId: (target ?? w.people.CL).id },
  });
  if (res.statusCode !== 200) throw new Error(`impersonation: ${res.statusCode} ${res.body}`);
  w.impBefore = admin.cookie;
  return callerFor(t.app, mergeCookies(admin.cookie, res));
}

/**
 * A new session for an actor, for a cell that uses its session up (sign-out, the reset, stopping
 * impersonation). With `newUser`, a new person in the same place (role, company, clients) too, for
 * cells that change the person (their own two-factor sign-in).
 */
export async function freshActor(
  t: TestContext,
  w: MatrixWorld,
  actor: ActorKey,
  opts: { newUser?: boolean } = {},
): Promise<Caller> {
  const like = (
    role: "super-admin" | "company-admin" | "company-user" | "client-user",
    companyId: string | null,
    over: Parameters<TestContext["make"]["user"]>[0] = {},
  ) =>
    t.make.user({
      role,
      companyId,
      ...(role === "client-user" ? { clientIds: [w.seenClient.id] } : {}),
      ...over,
    });
  switch (actor) {
    case "anon":
      return callerFor(t.app, "");
    case "disabled": {
      const user = await like("company-user", w.A);
      const api = await signIn(t, user);
      await t.db.update(users).set({ banned: true }).where(eq(users.id, user.id));
      return api;
    }
    case "reset":
      return signIn(t, await like("company-user", w.A, { mustResetPassword: true }));
    case "imp":
      return impersonatingClientUser(t, w, opts.newUser ? await like("client-user", w.A) : undefined);
    default: {
      if (!opts.newUser) return signIn(t, w.people[actor]);
      const user = {
        SA: () => like("super-admin", null),
        tfa: () => like("super-admin", null, { twoFactor: false }),
        CA: () => like("company-admin", w.A),
        CU: () => like("company-user", w.A),
        CL: () => like("client-user", w.A),
        OA: () => like("company-admin", w.B),
      }[actor];
      return signIn(t, await user());
    }
  }
}

/** A surety limit and a collateral amount only staff may ever see (the leak scan looks for them). */
export const SURETY_LIMIT_MARKER = "987654321.00";
export const COLLATERAL_MARKER = "13579.24";
/** The amount, form and note prefix of the collateral added through the API (collateralThroughTheApi). */
export const AUDITED_COLLATERAL_MARKER = "77777.77";
export const AUDITED_COLLATERAL_FORM = "letter_of_credit";
const COLLATERAL_NOTE = "COLLATERAL-NOTE";

/**
 * A bond of the project as staff handle collateral: 'Add Collateral' (Letter of Credit, the marker
 * amount, a unique note) on the active bond, 'Release' of the bond, then 'Release Collateral', each
 * through its route, so each writes its audit entries as in production. Returns the bond's id.
 */
async function collateralThroughTheApi(
  t: TestContext,
  staff: Caller,
  project: { id: string; companyId: string },
  suretyId: string,
) {
  const id = await makeBond(t, { companyId: project.companyId, projectId: project.id, suretyId });
  const send = async (method: "POST" | "PATCH", url: string, payload: object, what: string) =>
    json(await staff.request({ method, url, payload }), what);
  await send(
    "POST",
    `/api/bonds/${id}/collateral`,
    {
      form: AUDITED_COLLATERAL_FORM,
      amount: AUDITED_COLLATERAL_MARKER,
      held_since: "2030-01-15",
      note: uniq(COLLATERAL_NOTE),
    },
    "add collateral",
  );
  await send("POST", `/api/bonds/${id}/ledger`, { kind: "release", effective_date: "2030-06-01" }, "release");
  const [held] = await t.db
    .select({ id: bondCollateral.id })
    .from(bondCollateral)
    .where(eq(bondCollateral.permitId, id));
  await send(
    "PATCH",
    `/api/bonds/${id}/collateral/${held!.id}`,
    { released_on: "2030-06-15" },
    "release collateral",
  );
  return id;
}

/** A surety of the company, with limits (the marker as its aggregate limit). */
export async function makeSurety(t: TestContext, companyId: string) {
  const [row] = await t.db
    .insert(sureties)
    .values({
      companyId,
      name: uniq("Surety"),
      singleLimit: "1000000.00",
      aggregateLimit: SURETY_LIMIT_MARKER,
    })
    .returning({ id: sureties.id });
  return row!.id;
}

/**
 * An Active Performance bond as the bond form leaves it: its amount as the ledger's original entry
 * (and current amount); with `collateral`, cash held against it; `released`: released with it.
 */
export async function makeBond(
  t: TestContext,
  opts: {
    companyId: string;
    projectId: string;
    suretyId?: string | null;
    collateral?: boolean;
    released?: boolean;
  },
) {
  const bond = await t.make.permit({
    companyId: opts.companyId,
    projectId: opts.projectId,
    permitNumber: uniq("MXP"),
    permitName: uniq("Matrix bond"),
    recordType: "bond",
    guaranteeType: "Performance",
    bondAmount: "250000.00",
    currentAmount: opts.released ? "0.00" : "250000.00",
    bondStatus: opts.released ? "released" : "active",
    suretyId: opts.suretyId ?? null,
    issueDate: "2030-01-02",
    expirationDate: "2031-12-31",
  });
  const entry = { companyId: opts.companyId, permitId: bond.id, createdByName: "Matrix" };
  await t.db.insert(bondLedgerEntries).values({
    ...entry,
    kind: "original",
    change: "250000.00",
    amountAfter: "250000.00",
    effectiveDate: "2030-01-02",
  });
  if (opts.released) {
    await t.db.insert(bondLedgerEntries).values({
      ...entry,
      kind: "release",
      change: "-250000.00",
      amountAfter: "0.00",
      effectiveDate: "2030-06-01",
    });
  }
  if (opts.collateral) {
    await t.db.insert(bondCollateral).values({
      companyId: opts.companyId,
      permitId: bond.id,
      form: "cash",
      amount: COLLATERAL_MARKER,
      heldSince: "2030-01-02",
      createdByName: "Matrix",
    });
  }
  return bond.id;
}

/** New records for cells that change or delete theirs, so no cell depends on another. */
export function freshRecords(t: TestContext, w: MatrixWorld) {
  const companyOfObject = (object: RecordKey) => (object === "other" ? w.B : w.A);
  return {
    async permit(object: RecordKey) {
      const p = w.projects[object];
      return (
        await t.make.permit({
          companyId: p.companyId,
          projectId: p.id,
          permitNumber: uniq("FRP"),
          expirationDate: "2030-12-31",
        })
      ).id;
    },
    async project(object: RecordKey) {
      const clientId = {
        own: null,
        ownClient: w.seenClient.id,
        otherClient: w.hiddenClient.id,
        other: w.bClient.id,
      }[object];
      return (
        await t.make.project({ companyId: companyOfObject(object), clientId, name: uniq("Fresh project") })
      ).id;
    },
    /** `ownClient`: a new client of A added to the client-user's list. */
    async client(object: RecordKey) {
      const row = await t.make.client(companyOfObject(object), uniq("Fresh client"));
      if (object === "ownClient") {
        await t.db.insert(userClients).values({ userId: w.people.CL.id, clientId: row.id, companyId: w.A });
      }
      return row.id;
    },
    /** A bond of the object's project; `released` with its collateral still held (to release). */
    async bond(object: RecordKey, opts: { released?: boolean; collateral?: boolean } = {}) {
      const p = w.projects[object];
      return makeBond(t, { companyId: p.companyId, projectId: p.id, ...opts });
    },
    /** A document request (issue 27) on a new permit of the object's project: open with a file, or submitted. */
    async request(object: RecordKey, opts: { submitted?: boolean } = {}) {
      const p = w.projects[object];
      const permit = await t.make.permit({
        companyId: p.companyId,
        projectId: p.id,
        permitNumber: uniq("FRQ"),
      });
      return makeDocumentRequest(t, permit, opts);
    },
    async collateralOf(bondId: string) {
      const [row] = await t.db
        .select({ id: bondCollateral.id })
        .from(bondCollateral)
        .where(eq(bondCollateral.permitId, bondId));
      return row!.id;
    },
    async surety(object: "own" | "other") {
      return makeSurety(t, object === "other" ? w.B : w.A);
    },
    async contact(object: "own" | "other") {
      return (
        await t.make.contact({
          companyId: object === "other" ? w.B : w.A,
          name: uniq("Contact"),
          email: `${uniq("contact")}@outside.example`,
        })
      ).id;
    },
    async template(object: RecordKey) {
      return (
        await t.make.template({ companyId: companyOfObject(object), name: uniq("Template"), active: false })
      ).id;
    },
    async user(object: RecordKey, opts: { role?: "company-user" | "client-user"; banned?: boolean } = {}) {
      return (
        await t.make.user({
          role: opts.role ?? "company-user",
          companyId: companyOfObject(object),
          banned: opts.banned ?? false,
        })
      ).id;
    },
    async company() {
      return (await t.make.company({ name: uniq("Stand-in company") })).id;
    },
    /** A saved view of the All Permits list, of `userId` (default: a user who is no actor). */
    async savedView(userId: string = w.users.own) {
      const [owner] = await t.db
        .select({ companyId: users.companyId })
        .from(users)
        .where(eq(users.id, userId));
      const [row] = await t.db
        .insert(savedViews)
        .values({ userId, companyId: owner?.companyId ?? null, name: uniq("View"), params: { q: "matrix" } })
        .returning({ id: savedViews.id });
      return row!.id;
    },
  };
}
export type FreshRecords = ReturnType<typeof freshRecords>;

/** The prefixes of uniq() names a leak scan may look for (a generic text could be anyone's). */
const DISTINCTIVE =
  /^(MXP|FRP|Project|Fresh project|Fresh client|INTERNAL-NOTE|Public note|View|Surety|COLLATERAL-NOTE|Contact|contact)-/;

/** A phone number only staff may see (issue 27: a contact's phone; the leak scan looks for it). */
export const CONTACT_PHONE_MARKER = "+1 555 0199 7331";

/**
 * What each actor must never receive, from the database as it is now: every id (and distinctive
 * name or text) of another company, super-admins' accounts excepted; for the client-user also
 * whatever lies outside its clients (records of other clients or of none) and every internal
 * comment. The super-admin may see everything.
 */
export async function forbiddenStrings(t: TestContext, w: MatrixWorld): Promise<Record<ActorKey, string[]>> {
  const [ps, prs, cls, cms, ats, us, tps, cos, links, views, srs, les, cols, cts] = await Promise.all([
    t.db
      .select({
        id: permits.id,
        companyId: permits.companyId,
        clientId: permits.clientId,
        number: permits.permitNumber,
      })
      .from(permits),
    t.db
      .select({
        id: projects.id,
        companyId: projects.companyId,
        clientId: projects.clientId,
        name: projects.name,
      })
      .from(projects),
    t.db.select({ id: clients.id, companyId: clients.companyId, name: clients.name }).from(clients),
    t.db
      .select({
        id: comments.id,
        permitId: comments.permitId,
        companyId: comments.companyId,
        isInternal: comments.isInternal,
        text: comments.text,
      })
      .from(comments),
    t.db
      .select({ id: attachments.id, permitId: attachments.permitId, companyId: attachments.companyId })
      .from(attachments),
    t.db.select({ id: users.id, companyId: users.companyId, email: users.email }).from(users),
    t.db.select({ id: permitTemplates.id, companyId: permitTemplates.companyId }).from(permitTemplates),
    t.db.select({ id: companies.id, name: companies.name }).from(companies),
    t.db
      .select({ clientId: userClients.clientId })
      .from(userClients)
      .where(eq(userClients.userId, w.people.CL.id)),
    t.db.select({ id: savedViews.id, userId: savedViews.userId, name: savedViews.name }).from(savedViews),
    t.db.select({ id: sureties.id, companyId: sureties.companyId, name: sureties.name }).from(sureties),
    t.db
      .select({
        id: bondLedgerEntries.id,
        permitId: bondLedgerEntries.permitId,
        companyId: bondLedgerEntries.companyId,
      })
      .from(bondLedgerEntries),
    t.db
      .select({ id: bondCollateral.id, companyId: bondCollateral.companyId, note: bondCollateral.note })
      .from(bondCollateral),
    t.db
      .select({ id: contacts.id, companyId: contacts.companyId, name: contacts.name, email: contacts.email })
      .from(contacts),
  ]);
  // Saved views are private to their owner, whoever asks (the super-admin included).
  const othersViews = (userId: string | undefined) =>
    views.filter((v) => v.userId !== userId).flatMap((v) => [v.id, v.name]);
  const distinctive = (s: string | null) => (s && DISTINCTIVE.test(s) ? [s] : []);
  const outsideCompany = (company: string) => [
    ...cos
      .filter((c) => c.id !== company)
      .flatMap((c) => [c.id, ...(w.companyName.A === c.name || w.companyName.B === c.name ? [c.name] : [])]),
    ...ps.filter((r) => r.companyId !== company).flatMap((r) => [r.id, ...distinctive(r.number)]),
    ...prs.filter((r) => r.companyId !== company).flatMap((r) => [r.id, ...distinctive(r.name)]),
    ...cls.filter((r) => r.companyId !== company).flatMap((r) => [r.id, r.name]),
    ...cms.filter((r) => r.companyId !== company).flatMap((r) => [r.id, ...distinctive(r.text)]),
    ...ats.filter((r) => r.companyId !== company).map((r) => r.id),
    ...us.filter((r) => r.companyId !== null && r.companyId !== company).flatMap((r) => [r.id, r.email]),
    ...tps.filter((r) => r.companyId !== company).map((r) => r.id),
    ...srs.filter((r) => r.companyId !== company).flatMap((r) => [r.id, ...distinctive(r.name)]),
    ...les.filter((r) => r.companyId !== company).map((r) => r.id),
    ...cols.filter((r) => r.companyId !== company).map((r) => r.id),
    ...cts
      .filter((r) => r.companyId !== company)
      .flatMap((r) => [r.id, ...distinctive(r.name), ...(r.email ? [r.email] : [])]),
  ];
  const seen = new Set(links.map((l) => l.clientId));
  const invisiblePermits = new Set(ps.filter((r) => !r.clientId || !seen.has(r.clientId)).map((r) => r.id));
  const outsideClients = [
    ...ps
      .filter((r) => r.companyId === w.A && invisiblePermits.has(r.id))
      .flatMap((r) => [r.id, ...distinctive(r.number)]),
    ...prs
      .filter((r) => r.companyId === w.A && (!r.clientId || !seen.has(r.clientId)))
      .flatMap((r) => [r.id, ...distinctive(r.name)]),
    ...cls.filter((r) => r.companyId === w.A && !seen.has(r.id)).flatMap((r) => [r.id, r.name]),
    ...cms.filter((r) => r.isInternal || invisiblePermits.has(r.permitId)).flatMap((r) => [r.id, r.text]),
    ...ats.filter((r) => invisiblePermits.has(r.permitId)).map((r) => r.id),
    ...les.filter((r) => invisiblePermits.has(r.permitId)).map((r) => r.id),
    // A client-user never sees collateral (its amount, form or note, from the ledger, the Bonds
    // page, an export or the audit trail) nor the company's surety limits (issue 12).
    ...cols.flatMap((r) => [r.id, ...distinctive(r.note)]),
    COLLATERAL_MARKER,
    AUDITED_COLLATERAL_MARKER,
    AUDITED_COLLATERAL_FORM,
    COLLATERAL_FORM_LABELS[AUDITED_COLLATERAL_FORM],
    SURETY_LIMIT_MARKER,
    // Issue 27: a contact's e-mail and phone, from a permit's page, an export or the contacts' routes.
    ...cts.flatMap((r) => (r.email ? [r.email] : [])),
    CONTACT_PHONE_MARKER,
  ];
  const ofA = outsideCompany(w.A);
  const clientUser = [...ofA, ...outsideClients];
  const lists: Record<ActorKey, string[]> = {
    anon: [],
    SA: [],
    CA: ofA,
    CU: ofA,
    CL: clientUser,
    imp: clientUser,
    OA: outsideCompany(w.B),
    disabled: ofA,
    reset: ofA,
    tfa: [],
  };
  for (const actor of Object.keys(lists) as ActorKey[]) {
    const own = actor === "anon" ? undefined : w.userIds[actor];
    lists[actor] = [...lists[actor], ...othersViews(own)];
  }
  return lists;
}
