import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  auditEvents,
  clients,
  companies,
  companyPreferences,
  permits,
  projects,
  sessions,
  users,
} from "../../db/schema.ts";
import { useTestContext, type ApiClient } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { multipart } from "../../test-support/multipart.ts";
import { sniffLogo } from "./companies.service.ts";

const LOGO_MAX_BYTES = 4096;
const t = useTestContext({ LOGO_MAX_BYTES: String(LOGO_MAX_BYTES), DEFAULT_TIME_ZONE: "America/Chicago" });

// A real 1x1 PNG, and the first bytes of JPEG and WebP files.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60)]);
const WEBP = Buffer.concat([
  Buffer.from("RIFF"),
  Buffer.from([36, 0, 0, 0]),
  Buffer.from("WEBPVP8 "),
  Buffer.alloc(40),
]);

/** One logo file as the browser sends it. */
const logoPart = (data: Buffer, opts: { field?: string; filename?: string; type?: string } = {}) =>
  multipart([
    {
      name: opts.field ?? "file",
      filename: opts.filename ?? "logo.png",
      contentType: opts.type ?? "image/png",
      content: data,
    },
  ]);
const upload = (api: ApiClient, id: string, data: Buffer, opts?: Parameters<typeof logoPart>[1]) =>
  api.request({ method: "POST", url: `/api/companies/${id}/logo`, ...logoPart(data, opts) });

const w = useWorld(t);

const valid = (over: Record<string, unknown> = {}) => ({
  name: "Granite Peak Builders",
  slug: `granite-${Math.random().toString(36).slice(2, 8)}`,
  address: "9 Quarry Rd",
  phone: "555-0199",
  website: "granitepeak.example",
  contactName: "Gia Stone",
  contactEmail: "Gia@GranitePeak.example",
  timeZone: "",
  ...over,
});

describe("every company route", () => {
  it("requires sign-in", async () => {
    const id = w.companyId;
    for (const res of [
      await t.anonymous.get("/api/companies"),
      await t.anonymous.post("/api/companies", valid()),
      await t.anonymous.get(`/api/companies/${id}`),
      await t.anonymous.put(`/api/companies/${id}`, valid()),
      await t.anonymous.delete(`/api/companies/${id}`),
      await upload(t.anonymous, id, PNG),
      await t.anonymous.delete(`/api/companies/${id}/logo`),
      await t.anonymous.get(`/api/companies/${id}/logo`),
    ]) {
      expect(res.statusCode).toBe(401);
    }
  });

  it("refuses company-users and client-users (403), and hides other companies from them (404)", async () => {
    for (const api of [w.user, w.clientUser]) {
      expect((await api.get("/api/companies")).statusCode).toBe(403);
      expect((await api.post("/api/companies", valid())).statusCode).toBe(403);
      expect((await api.get(`/api/companies/${w.companyId}`)).statusCode).toBe(403);
      expect((await api.put(`/api/companies/${w.companyId}`, valid())).statusCode).toBe(403);
      expect((await api.delete(`/api/companies/${w.companyId}`)).statusCode).toBe(403);
      expect((await upload(api, w.companyId, PNG)).statusCode).toBe(403);
      expect((await api.get(`/api/companies/${w.otherCompanyId}`)).statusCode).toBe(404);
      expect((await api.delete(`/api/companies/${w.otherCompanyId}`)).statusCode).toBe(404);
    }
    expect(await t.db.select().from(companies).where(eq(companies.id, w.companyId))).toHaveLength(1);
  });
});

describe("a company-admin", () => {
  it("lists only its own company, read-only", async () => {
    const res = await w.admin.get("/api/companies");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.companies.map((c: { id: string }) => c.id)).toEqual([w.companyId]);
    expect(body.companies[0].can).toEqual({ edit: false, delete: false });
    expect(body.can).toEqual({ create: false });
    expect((await w.admin.get(`/api/companies/${w.companyId}`)).json().name).toBe("Acme Builders");
  });

  it("cannot create, edit, delete or change the logo (403), and another company answers 404", async () => {
    expect((await w.admin.post("/api/companies", valid())).statusCode).toBe(403);
    expect((await w.admin.put(`/api/companies/${w.companyId}`, valid())).statusCode).toBe(403);
    expect((await w.admin.delete(`/api/companies/${w.companyId}`)).statusCode).toBe(403);
    expect((await upload(w.admin, w.companyId, PNG)).statusCode).toBe(403);
    expect((await w.admin.delete(`/api/companies/${w.companyId}/logo`)).statusCode).toBe(403);
    for (const res of [
      await w.admin.get(`/api/companies/${w.otherCompanyId}`),
      await w.admin.put(`/api/companies/${w.otherCompanyId}`, valid()),
      await w.admin.delete(`/api/companies/${w.otherCompanyId}`),
      await upload(w.admin, w.otherCompanyId, PNG),
      await w.admin.get(`/api/companies/${w.otherCompanyId}/logo`),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    const [row] = await t.db.select().from(companies).where(eq(companies.id, w.companyId));
    expect(row!.name).toBe("Acme Builders");
  });
});

describe("the super-admin", () => {
  it("lists every company with counts, the default time zone and what it may do", async () => {
    const res = await w.superAdmin.get("/api/companies");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.can).toEqual({ create: true });
    expect(body.defaultTimeZone).toBe("America/Chicago");
    const acme = body.companies.find((c: { id: string }) => c.id === w.companyId);
    expect(acme).toMatchObject({ name: "Acme Builders", can: { edit: true, delete: true } });
    expect(acme.counts).toEqual({ users: 3, clients: 1, projects: 0, permits: 0 });
    expect(body.companies.some((c: { id: string }) => c.id === w.otherCompanyId)).toBe(true);
  });

  it("creates a company with the default time zone, reminder preferences and an audit event", async () => {
    const res = await w.superAdmin.post("/api/companies", valid({ slug: "granite-peak" }));
    expect(res.statusCode).toBe(201);
    const company = res.json();
    expect(company).toMatchObject({
      name: "Granite Peak Builders",
      slug: "granite-peak",
      website: "granitepeak.example",
      contactEmail: "gia@granitepeak.example",
      timeZone: "America/Chicago",
      logoUrl: null,
      counts: { users: 0, clients: 0, projects: 0, permits: 0 },
      can: { edit: true, delete: true },
    });
    const [prefs] = await t.db
      .select()
      .from(companyPreferences)
      .where(eq(companyPreferences.companyId, company.id));
    expect(prefs).toMatchObject({ email30Day: true, email7Day: true, email1Day: true });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, company.id));
    expect(events.map((e) => e.action)).toEqual(["company.create"]);
  });

  it("refuses a slug already in use with a field message (409), changing nothing", async () => {
    const first = (await w.superAdmin.post("/api/companies", valid({ slug: "taken-slug" }))).json();
    const res = await w.superAdmin.post("/api/companies", valid({ slug: "taken-slug", name: "Copycat" }));
    expect(res.statusCode).toBe(409);
    expect(res.json().fields).toEqual({ slug: "This slug is already used by another company." });
    expect(await t.db.select().from(companies).where(eq(companies.name, "Copycat"))).toHaveLength(0);

    const other = (await w.superAdmin.post("/api/companies", valid({ slug: "another-slug" }))).json();
    const update = await w.superAdmin.put(`/api/companies/${other.id}`, valid({ slug: first.slug }));
    expect(update.statusCode).toBe(409);
    expect(update.json().fields.slug).toBeDefined();
  });

  it("rejects bad input with field messages and creates nothing", async () => {
    const before = await t.db.select().from(companies);
    const res = await w.superAdmin.post("/api/companies", {
      name: "  ",
      slug: "Not A Slug!",
      website: "not a website",
      contactEmail: "nobody",
      timeZone: "Mars/Olympus",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      name: "Name is required",
      slug: "Use lowercase letters, digits and hyphens only",
      website: "Enter a valid website address",
      contactEmail: "Enter a valid email address",
      timeZone: "Choose a valid time zone",
    });
    expect((await w.superAdmin.post("/api/companies", { name: "X" })).json().fields.slug).toBeDefined();
    expect(await t.db.select().from(companies)).toHaveLength(before.length);
  });

  it("updates a company, keeping the time zone when none is sent, and audits the changed fields", async () => {
    const created = (await w.superAdmin.post("/api/companies", valid({ timeZone: "Europe/Berlin" }))).json();
    const res = await w.superAdmin.put(
      `/api/companies/${created.id}`,
      valid({ slug: created.slug, name: "Renamed", phone: "" }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Renamed", phone: null, timeZone: "Europe/Berlin" });
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, "company.update"));
    expect(event!.details).toEqual({ fields: ["name", "phone"] });
    expect((await w.superAdmin.put(`/api/companies/${t.make.uuid()}`, valid())).statusCode).toBe(404);
  });

  it("deletes a company with all its data in one go, ending its users' sessions, and keeps the audit event", async () => {
    const company = (await w.superAdmin.post("/api/companies", valid())).json();
    const member = await t.make.user({ role: "company-admin", companyId: company.id });
    const memberApi = await t.signIn(member);
    const client = await t.make.client(company.id);
    const project = await t.make.project({ companyId: company.id, clientId: client.id });
    await t.make.permit({ companyId: company.id, projectId: project.id });
    await t.make.permit({ companyId: company.id, projectId: project.id });
    expect((await upload(w.superAdmin, company.id, PNG)).statusCode).toBe(200);

    const shown = (await w.superAdmin.get(`/api/companies/${company.id}`)).json();
    expect(shown.counts).toEqual({ users: 1, clients: 1, projects: 1, permits: 2 });

    expect((await w.superAdmin.delete(`/api/companies/${company.id}`)).statusCode).toBe(204);
    expect(await t.db.select().from(companies).where(eq(companies.id, company.id))).toHaveLength(0);
    expect(await t.db.select().from(users).where(eq(users.companyId, company.id))).toHaveLength(0);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, member.id))).toHaveLength(0);
    expect(await t.db.select().from(clients).where(eq(clients.companyId, company.id))).toHaveLength(0);
    expect(await t.db.select().from(projects).where(eq(projects.companyId, company.id))).toHaveLength(0);
    expect(await t.db.select().from(permits).where(eq(permits.companyId, company.id))).toHaveLength(0);
    expect((await memberApi.get("/api/me")).statusCode).toBe(401);

    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, "company.delete"));
    expect(event).toMatchObject({ companyId: null, entityId: company.id });
    expect(event!.details).toMatchObject({ removed: { users: 1, clients: 1, projects: 1, permits: 2 } });
    expect((await w.superAdmin.delete(`/api/companies/${company.id}`)).statusCode).toBe(404);
  });
});

describe("the logo", () => {
  it("recognises images by their bytes only", () => {
    expect(sniffLogo(PNG)).toBe("image/png");
    expect(sniffLogo(JPEG)).toBe("image/jpeg");
    expect(sniffLogo(WEBP)).toBe("image/webp");
    expect(sniffLogo(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffLogo(Buffer.alloc(0))).toBeNull();
  });

  it("is uploaded by the super-admin and served to the company's users with its real type", async () => {
    const company = await t.make.company();
    const res = await upload(w.superAdmin, company.id, JPEG, { filename: "logo.png", type: "image/png" });
    expect(res.statusCode).toBe(200);
    const { logoUrl } = res.json();
    expect(logoUrl).toMatch(new RegExp(`^/api/companies/${company.id}/logo\\?v=`));

    const member = await t.signIn(await t.make.user({ role: "client-user", companyId: company.id }));
    expect((await member.get("/api/me")).json().company.logoUrl).toBe(logoUrl);
    const image = await member.get(logoUrl);
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/jpeg");
    expect(image.headers["x-content-type-options"]).toBe("nosniff");
    expect(image.rawPayload.equals(JPEG)).toBe(true);
    expect((await w.superAdmin.get(logoUrl)).statusCode).toBe(200);
    // Another company's user does not get it.
    expect((await w.user.get(logoUrl)).statusCode).toBe(404);

    // A new logo replaces the old one under a new URL.
    const replaced = (
      await upload(w.superAdmin, company.id, WEBP, { filename: "x.jpg", type: "image/jpeg" })
    ).json();
    expect(replaced.logoUrl).not.toBe(logoUrl);
    expect((await member.get(replaced.logoUrl)).headers["content-type"]).toBe("image/webp");

    const removed = await w.superAdmin.delete(`/api/companies/${company.id}/logo`);
    expect(removed.json().logoUrl).toBeNull();
    expect((await member.get(replaced.logoUrl)).statusCode).toBe(404);
  });

  it("is stored under its company's prefix with its hash, and refused (409) once changed on disk", async () => {
    const company = await t.make.company();
    const { logoUrl } = (await upload(w.superAdmin, company.id, PNG)).json();
    const [row] = await t.db.select().from(companies).where(eq(companies.id, company.id));
    expect(row!.logoKey).toMatch(new RegExp(`^companies/${company.id}/logos/[0-9a-f-]{36}$`));
    expect(row).toMatchObject({
      logoSize: PNG.length,
      logoSha256: createHash("sha256").update(PNG).digest("hex"),
    });
    const file = path.join(t.dataDir, "files", row!.logoKey!);
    fs.writeFileSync(file, Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(PNG.length - 8)]));
    const changed = await w.superAdmin.get(logoUrl);
    expect(changed.statusCode).toBe(409);
    expect(changed.json().code).toBe("FILE_CHANGED");
    // A logo from before hashes is checked from its first read on.
    fs.writeFileSync(file, PNG);
    await t.db
      .update(companies)
      .set({ logoSha256: null, logoSize: null })
      .where(eq(companies.id, company.id));
    expect((await w.superAdmin.get(logoUrl)).rawPayload.equals(PNG)).toBe(true);
    const [after] = await t.db.select().from(companies).where(eq(companies.id, company.id));
    expect(after).toMatchObject({ logoSize: PNG.length, logoSha256: row!.logoSha256 });
  });

  it("refuses what is not a PNG, JPEG or WebP whatever its name, files over the limit, and a missing file", async () => {
    const company = await t.make.company();
    const svg = await upload(
      w.superAdmin,
      company.id,
      Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"),
      {
        filename: "logo.png",
        type: "image/png",
      },
    );
    expect(svg.statusCode).toBe(415);
    expect(svg.json().message).toBe("The logo must be a PNG, JPEG or WebP image.");
    // A PNG signature over bytes that are not a whole PNG (pdfkit would spend seconds on it in every packet).
    const broken = await upload(w.superAdmin, company.id, Buffer.concat([PNG, Buffer.from([0])]));
    expect(broken.statusCode).toBe(415);

    const big = await upload(w.superAdmin, company.id, Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]));
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toMatch(/^The logo must be at most/);

    const wrongField = await upload(w.superAdmin, company.id, PNG, { field: "logo" });
    expect(wrongField.statusCode).toBe(400);
    expect((await w.superAdmin.post(`/api/companies/${company.id}/logo`, { file: "x" })).statusCode).toBe(
      400,
    );

    const [row] = await t.db.select().from(companies).where(eq(companies.id, company.id));
    expect(row!.logoKey).toBeNull();
    expect((await w.superAdmin.get(`/api/companies/${company.id}/logo`)).statusCode).toBe(404);
  });
});
