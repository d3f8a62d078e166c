import fs from "node:fs";
import path from "node:path";
import { extractText, getDocumentProxy, renderPageAsImage } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../shared/domain/dates.ts";
import type { PermitList } from "../../shared/schemas/permits.ts";
import { BASE_URL, DEMO, PHONE, signedIn, useBrowser } from "./support.ts";

// The compliance packet and the status link (issue 30) in Chromium, against the real server: staff
// download the packet from the project dashboard and create a status link; a fresh browser (no
// sign-in) on a phone opens it and sees the tables; once revoked, the link shows its gone page.

const stamp = Date.now().toString(36);
const b = useBrowser({ viewport: { width: 1280, height: 860 } });
const CSRF = { "x-requested-with": "permitrack" };
const SHOTS = "/work/shots/i30";
const numbers = [`SL-A-${stamp}`.toUpperCase(), `SL-B-${stamp}`.toUpperCase()];
let projectId = "";

// pdf.js draws with ArrayBuffer.prototype.transferToFixedLength (Node 22+); on Node 20 a copy does.
const proto = ArrayBuffer.prototype as unknown as { transferToFixedLength?: (n?: number) => ArrayBuffer };
proto.transferToFixedLength ??= function (this: ArrayBuffer, n?: number) {
  const len = n ?? this.byteLength;
  const out = new ArrayBuffer(len);
  new Uint8Array(out).set(new Uint8Array(this, 0, Math.min(len, this.byteLength)));
  return out;
};

async function pdfText(buf: Buffer) {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(buf)), { mergePages: true });
  return text;
}

beforeAll(async () => {
  const admin = await signedIn(b, DEMO.companyAdmin);
  const me = await (await admin.request.get(`${BASE_URL}/api/me`)).json();
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: me.company?.timeZone ?? "UTC" }).format(
    new Date(),
  );
  const seen = (await (
    await admin.request.get(`${BASE_URL}/api/permits?group=none&page_size=1`)
  ).json()) as PermitList;
  const clientId = seen.items[0]?.client?.id ?? null;
  const project = await admin.request.post(`${BASE_URL}/api/projects`, {
    headers: CSRF,
    data: { name: `Status Link Tower ${stamp}`, client_id: clientId, company_id: me.company?.id },
  });
  expect(project.status(), await project.text()).toBe(201);
  projectId = (await project.json()).project.id;
  const dates = [addDays(today, -5), addDays(today, 45)];
  for (const [i, number] of numbers.entries()) {
    const res = await admin.request.post(`${BASE_URL}/api/permits`, {
      headers: CSRF,
      data: {
        project_id: projectId,
        record_type: "permit",
        permit_number: number,
        permit_name: `Permit ${i + 1} ${stamp}`,
        agency: "City of Boulder",
        issue_date: addDays(today, -300),
        expiration_date: dates[i],
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  await admin.context().close();
  fs.mkdirSync(SHOTS, { recursive: true });
}, 120_000);

describe("compliance packet and status link", () => {
  it("downloads the packet, shares a status link, opens it on a phone, revokes it", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.goto(`${BASE_URL}/projects/${projectId}/dashboard`);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download Compliance Packet" }).click();
    const file = await (await download).path();
    const pdf = fs.readFileSync(file!);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await pdfText(pdf);
    for (const n of numbers) expect(text).toContain(n);
    expect(text).toMatch(/! Expired/);
    const png = await renderPageAsImage(new Uint8Array(pdf), 1, {
      canvasImport: () => import("@napi-rs/canvas"),
      scale: 1.5,
    });
    fs.writeFileSync(path.join(SHOTS, "packet-page-1.png"), Buffer.from(png));

    await page.getByRole("button", { name: "Share Status" }).click();
    const dialog = page.getByRole("dialog", { name: /Share Status/ });
    await dialog.getByRole("button", { name: "Create Link" }).click();
    const linkBox = dialog.getByRole("textbox", { name: "Status link" });
    await expect
      .poll(() => linkBox.inputValue(), { timeout: 15_000 })
      .toMatch(/\/status\/[A-Za-z0-9_-]{43}$/);
    const url = await linkBox.inputValue();
    await expect.poll(() => dialog.getByRole("button", { name: "Copy" }).isVisible()).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, "share-status-dialog.png") });

    const phone = await b.newPage({ viewport: PHONE });
    await phone.goto(url.replace(/^https?:\/\/[^/]+/, BASE_URL));
    await expect
      .poll(() => phone.getByRole("list", { name: "Permits" }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    for (const n of numbers)
      await expect.poll(() => phone.getByText(n, { exact: false }).first().isVisible()).toBe(true);
    await expect.poll(() => phone.getByText("Expired", { exact: true }).first().isVisible()).toBe(true);
    await phone.screenshot({ path: path.join(SHOTS, "status-page-phone.png"), fullPage: true });
    // The packet through the link.
    const viaLink = await phone.request.get(
      `${url.replace(/^https?:\/\/[^/]+/, BASE_URL).replace("/status/", "/api/status-links/")}/packet.pdf`,
    );
    expect(viaLink.status()).toBe(200);

    // The view is counted in the dialog's list; then revoke.
    await dialog.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Share Status" }).click();
    const again = page.getByRole("dialog", { name: /Share Status/ });
    const row = again
      .getByRole("row")
      .filter({ has: page.getByRole("button", { name: /Revoke/ }) })
      .first();
    await expect.poll(() => row.getByRole("cell").nth(4).textContent()).toBe("1");
    await row.getByRole("button", { name: /Revoke/ }).click();
    await expect.poll(() => again.getByText("Revoked", { exact: true }).first().isVisible()).toBe(true);

    await phone.reload();
    await expect
      .poll(() => phone.getByRole("heading", { name: "This status link was revoked" }).isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);
    await phone.screenshot({ path: path.join(SHOTS, "status-page-revoked.png") });
  }, 180_000);

  it("lets a client-user download a client's packet, across its projects, from the permit list", async () => {
    const page = await signedIn(b, DEMO.clientUser);
    const seen = (await (
      await page.request.get(`${BASE_URL}/api/permits?group=none&page_size=500`)
    ).json()) as PermitList;
    const client = seen.items.find((p) => p.client)!.client!;
    const mine = seen.items
      .filter((p) => p.client?.id === client.id && p.record_type === "permit")
      .map((p) => p.permit_number);
    await page.goto(`${BASE_URL}/permits`);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: `Download Compliance Packet of ${client.name}` }).click();
    const pdf = fs.readFileSync((await (await download).path())!);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await pdfText(pdf);
    expect(text).toContain(client.name);
    for (const n of mine.slice(0, 5)) expect(text).toContain(n);
    // Only its own clients' permits: none of another client's (the numbers made above, when elsewhere).
    if (!seen.items.some((p) => numbers.includes(p.permit_number))) {
      for (const n of numbers) expect(text).not.toContain(n);
    }
    await page.context().close();
  });
});
