import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { attachments, bondCollateral, comments, statusLinks, sureties } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { statementsOf } from "../../test-support/statements.ts";
import { useWorld } from "../../test-support/world.ts";
import { daysBetween, todayIn, addDays } from "../../../shared/domain/dates.ts";

// Issue 30: the compliance packet (PDF) and the status link.

const lines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _e, done) {
    lines.push(chunk.toString("utf8"));
    done();
  },
});
const t = useTestContext({}, { logStream });

const SECRET = {
  comment: "ZEBRA-internal-note-7731",
  publicComment: "OKAPI-public-comment-1184",
  attachment: "QUOKKA-site-photo-5521.pdf",
  email: "narwhal-owner-9043@example.com",
  collateral: "IBEX-collateral-note-3320",
  collateralAmount: "7654321.00",
  suretyLimit: "9876543.00",
};

const w = useWorld(t, { otherAdmin: true }, async (w) => {
  const today = todayIn("UTC");
  const project = await t.make.project({
    companyId: w.companyId,
    clientId: w.seenClientId,
    name: "Harbor Tower",
  });
  const hiddenClient = await t.make.client(w.companyId, "Hidden Client");
  const hiddenProject = await t.make.project({
    companyId: w.companyId,
    clientId: hiddenClient.id,
    name: "Hidden Yard",
  });
  const foreignProject = await t.make.project({ companyId: w.otherCompanyId, name: "Foreign Works" });
  const responsible = await t.make.user({
    role: "company-user",
    companyId: w.companyId,
    firstName: "Rita",
    lastName: "Resp",
    email: SECRET.email,
  });
  const [surety] = await t.db
    .insert(sureties)
    .values({
      companyId: w.companyId,
      name: "Liberty Surety",
      singleLimit: SECRET.suretyLimit,
      aggregateLimit: SECRET.suretyLimit,
    })
    .returning();
  const mk = (o: Record<string, unknown>) =>
    t.make.permit({ companyId: w.companyId, projectId: project.id, ...o } as Parameters<
      typeof t.make.permit
    >[0]);
  const expired = await mk({
    permitNumber: "PK-EXPIRED",
    permitName: "Grading",
    status: "Required",
    issueDate: addDays(today, -400),
    expirationDate: addDays(today, -3),
    responsibleUserId: responsible.id,
  });
  const soon = await mk({
    permitNumber: "PK-SOON",
    permitName: "Electrical",
    status: "In Waiting",
    expirationDate: addDays(today, 12),
  });
  const later = await mk({
    permitNumber: "PK-LATER",
    permitName: "Plumbing",
    status: "Pending",
    expirationDate: addDays(today, 200),
  });
  const bond = await mk({
    permitNumber: "BD-1",
    permitName: "Performance bond",
    recordType: "bond",
    bondNumber: "BN-4471",
    suretyId: surety!.id,
    guaranteeType: "Performance",
    bondAmount: "250000.00",
    currentAmount: "250000.00",
    bondStatus: "active",
    expirationDate: addDays(today, 90),
  });
  await t.make.permit({ companyId: w.companyId, projectId: hiddenProject.id, permitNumber: "PK-HIDDEN" });
  await t.make.permit({
    companyId: w.otherCompanyId,
    projectId: foreignProject.id,
    permitNumber: "PK-FOREIGN",
  });
  await t.db.insert(comments).values([
    {
      permitId: expired.id,
      companyId: w.companyId,
      userName: "Ada Admin",
      text: SECRET.comment,
      isInternal: true,
    },
    {
      permitId: expired.id,
      companyId: w.companyId,
      userName: "Ada Admin",
      text: SECRET.publicComment,
      isInternal: false,
    },
  ]);
  await t.db.insert(attachments).values({
    permitId: soon.id,
    companyId: w.companyId,
    filename: SECRET.attachment,
    storageKey: "local:nothing-here",
    contentType: "application/pdf",
    size: 10,
  } as typeof attachments.$inferInsert);
  await t.db.insert(bondCollateral).values({
    companyId: w.companyId,
    permitId: bond.id,
    form: "cash",
    amount: SECRET.collateralAmount,
    heldSince: today,
    note: SECRET.collateral,
  });
  return { project, hiddenProject, foreignProject, hiddenClient, expired, soon, later, bond };
});

async function pdfText(body: Buffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(body));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}

const money = (s: string) => [s, Number(s).toLocaleString("en-US", { minimumFractionDigits: 2 })];

describe("compliance packet", () => {
  it("lists every permit and bond with the API's status and days left, and nothing internal", async () => {
    const res = await w.admin.get(`/api/projects/${w.project.id}/compliance-packet.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toMatch(
      /attachment; filename="compliance-packet-harbor-tower-/,
    );
    const text = await pdfText(res.rawPayload);
    if (process.env.SHOW_PDF_TEXT) console.log("PDFTEXT", JSON.stringify(text));
    const list = await w.admin.get(
      `/api/permits?project_id=${w.project.id}&group=none&page_size=100&show_non_required=true`,
    );
    expect(list.statusCode).toBe(200);
    const items = list.json().items as {
      permit_number: string;
      display_status: string;
      expiration_date: string | null;
      record_type: string;
    }[];
    expect(items.map((i) => i.permit_number).sort()).toEqual(["BD-1", "PK-EXPIRED", "PK-LATER", "PK-SOON"]);
    const today = todayIn("UTC");
    for (const item of items) {
      const number = item.record_type === "bond" ? "BN-4471" : item.permit_number;
      const days = item.expiration_date ? String(daysBetween(today, item.expiration_date)) : "";
      // The row reads: number ... status ... days left, in this order on one line.
      const row = new RegExp(
        `${number}[^\\n]*?${item.display_status.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\\n]*?(?<![\\w-])${days}\\b`,
      );
      expect(text, `${number} ${item.display_status} ${days}`).toMatch(row);
    }
    expect(text).toContain("Acme Builders");
    expect(text).toContain("Harbor Tower");
    expect(text).toContain("Seen Client");
    expect(text).toMatch(/As of /);
    expect(text).toMatch(/Page 1 of \d/);
    expect(text).toMatch(/! Expired/);
    expect(text).toContain("Rita Resp");
    expect(text).toContain("Liberty Surety");
    for (const leak of [
      SECRET.comment,
      SECRET.publicComment,
      SECRET.attachment,
      SECRET.email,
      SECRET.collateral,
      ...money(SECRET.collateralAmount),
      ...money(SECRET.suretyLimit),
    ]) {
      expect(text).not.toContain(leak);
    }
    expect(text).not.toContain("PK-HIDDEN");
  });

  it("reads its data in two statements", async () => {
    const { result, statements } = await statementsOf(t.database, () =>
      w.user.get(`/api/projects/${w.project.id}/compliance-packet.pdf`),
    );
    expect(result.statusCode).toBe(200);
    // The session's own reads come first; the packet's are the header and the rows.
    const packet = statements.filter((s) => /permit_number|"projects"\."name"/.test(s));
    expect(packet.length).toBeLessThanOrEqual(2);
  });

  it("is scoped like the dashboard: another company's project 404, a client-user only its clients", async () => {
    expect((await w.admin.get(`/api/projects/${w.foreignProject.id}/compliance-packet.pdf`)).statusCode).toBe(
      404,
    );
    expect(
      (await w.clientUser.get(`/api/projects/${w.hiddenProject.id}/compliance-packet.pdf`)).statusCode,
    ).toBe(404);
    expect(
      (await w.clientUser.get(`/api/clients/${w.hiddenClient.id}/compliance-packet.pdf`)).statusCode,
    ).toBe(404);
    expect((await t.anonymous.get(`/api/projects/${w.project.id}/compliance-packet.pdf`)).statusCode).toBe(
      401,
    );
    const own = await w.clientUser.get(`/api/clients/${w.seenClientId}/compliance-packet.pdf`);
    expect(own.statusCode).toBe(200);
    const text = await pdfText(own.rawPayload);
    expect(text).toContain("PK-EXPIRED");
    expect(text).not.toContain("PK-HIDDEN");
    expect(text).not.toContain(SECRET.comment);
    const admins = await pdfText(
      (await w.admin.get(`/api/clients/${w.hiddenClient.id}/compliance-packet.pdf`)).rawPayload,
    );
    expect(admins).toContain("PK-HIDDEN");
  });
});

describe("status links", () => {
  const tokenOf = (url: string) => url.split("/status/")[1]!;

  it("roles and tenants: staff share, a client-user may not (403), another company 404", async () => {
    expect((await w.clientUser.post(`/api/projects/${w.project.id}/status-links`, {})).statusCode).toBe(403);
    expect((await w.otherAdmin.post(`/api/projects/${w.project.id}/status-links`, {})).statusCode).toBe(404);
    expect((await w.otherAdmin.get(`/api/projects/${w.project.id}/compliance-packet.pdf`)).statusCode).toBe(
      404,
    );
    expect((await w.admin.post(`/api/projects/${w.foreignProject.id}/status-links`, {})).statusCode).toBe(
      404,
    );
    expect(
      (await w.user.post(`/api/projects/${w.project.id}/status-links`, { expires_in_days: 400 })).statusCode,
    ).toBe(400);
  });

  it("shows the report without sign-in, counts views, never shows internal data; revoke 410", async () => {
    lines.length = 0;
    const created = await w.user.post(`/api/projects/${w.project.id}/status-links`, { expires_in_days: 30 });
    expect(created.statusCode).toBe(201);
    const { url, link } = created.json() as { url: string; link: { id: string; view_count: number } };
    const token = tokenOf(url);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await t.db.select().from(statusLinks).where(eq(statusLinks.id, link.id));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);

    const page = await t.anonymous.get(`/api/status-links/${token}`);
    expect(page.statusCode).toBe(200);
    const report = page.json().report as {
      permits: { number: string; status: string }[];
      bonds: { number: string }[];
    };
    expect(report.permits.map((p) => p.number).sort()).toEqual(["PK-EXPIRED", "PK-LATER", "PK-SOON"]);
    expect(report.bonds.map((b) => b.number)).toEqual(["BN-4471"]);
    const pdf = await t.anonymous.get(`/api/status-links/${token}/packet.pdf`);
    expect(pdf.statusCode).toBe(200);
    const pdfBody = await pdfText(pdf.rawPayload);
    for (const leak of [
      SECRET.comment,
      SECRET.publicComment,
      SECRET.attachment,
      SECRET.email,
      SECRET.collateral,
      ...money(SECRET.collateralAmount),
      ...money(SECRET.suretyLimit),
    ]) {
      expect(page.body).not.toContain(leak);
      expect(pdfBody).not.toContain(leak);
    }
    expect(page.body).not.toMatch(/@example\.com/);

    await t.anonymous.get(`/api/status-links/${token}`);
    const list = await w.admin.get(`/api/projects/${w.project.id}/status-links`);
    const listed = (
      list.json().links as { id: string; view_count: number; last_viewed_at: string | null }[]
    ).find((l) => l.id === link.id)!;
    expect(listed.view_count).toBe(2);
    expect(listed.last_viewed_at).not.toBeNull();

    expect(
      (await w.clientUser.post(`/api/projects/${w.project.id}/status-links/${link.id}/revoke`)).statusCode,
    ).toBe(403);
    expect(
      (await w.admin.post(`/api/projects/${w.project.id}/status-links/${link.id}/revoke`)).statusCode,
    ).toBe(200);
    const gone = await t.anonymous.get(`/api/status-links/${token}`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toEqual({ state: "revoked", company: { name: "Acme Builders" } });
    expect((await t.anonymous.get(`/api/status-links/${token}/packet.pdf`)).statusCode).toBe(410);
    expect((await t.anonymous.get(`/api/status-links/${"x".repeat(43)}`)).statusCode).toBe(404);
    // The token never reaches a log line.
    const log = lines.join("");
    expect(log).toContain("/api/status-links/[redacted]");
    expect(log).not.toContain(token);
  });

  it("expires (410), and a client's link shows that client only", async () => {
    const created = await w.admin.post(`/api/clients/${w.seenClientId}/status-links`, { expires_in_days: 1 });
    expect(created.statusCode).toBe(201);
    const token = tokenOf(created.json().url);
    const page = await t.anonymous.get(`/api/status-links/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("PK-EXPIRED");
    expect(page.body).not.toContain("PK-HIDDEN");
    expect(page.body).not.toContain("PK-FOREIGN");
    await t.db
      .update(statusLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(statusLinks.id, created.json().link.id));
    const gone = await t.anonymous.get(`/api/status-links/${token}`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().state).toBe("expired");
    // Another company's admin can neither list nor revoke it.
    expect((await w.otherAdmin.get(`/api/clients/${w.seenClientId}/status-links`)).statusCode).toBe(404);
    expect(
      (
        await w.otherAdmin.post(
          `/api/clients/${w.seenClientId}/status-links/${created.json().link.id}/revoke`,
        )
      ).statusCode,
    ).toBe(404);
  });
});
