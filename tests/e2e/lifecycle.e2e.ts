import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createLinkSigner } from "../../server/auth/link-signer.ts";
import { signAcknowledgeToken } from "../../server/features/reminders/index.ts";
import { addDays } from "../../shared/domain/dates.ts";
import { countdownDate } from "../../shared/domain/lifecycle.ts";
import type { PermitDetail, PermitFormOptions, PermitList } from "../../shared/schemas/permits.ts";
import {
  BASE_URL,
  DEMO,
  eventually,
  PHONE,
  recordApiRequests,
  shot,
  signedIn,
  toast,
  useBrowser,
  viewportShot,
} from "./support.ts";

// The permit lifecycle in the browser (issue 11): renew, extend, an inspection that moves the
// expiry, acknowledge on the permit and from a reminder's link, close; as staff and as a client.

const stamp = Date.now().toString(36);
const DESKTOP = { width: 1280, height: 800 };
const b = useBrowser({ viewport: DESKTOP });
const CSRF = { "x-requested-with": "permitrack" };

const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const day = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(`${iso}T00:00:00Z`),
  );

/** Today where the demo company is (its reminders and "today" use its zone). */
let today = "";
let companyUserId = "";
let companyUserName = "";
let projectId = "";
const made: Record<string, PermitDetail> = {};

async function createPermit(request: APIRequestContext, name: string, over: Record<string, unknown> = {}) {
  const res = await request.post(`${BASE_URL}/api/permits`, {
    headers: CSRF,
    data: {
      permit_number: `LC-${name}-${stamp}`.toUpperCase(),
      permit_name: `Lifecycle ${name} ${stamp}`,
      record_type: "permit",
      agency: "City of Boulder",
      project_id: projectId,
      issue_date: addDays(today, -300),
      expiration_date: addDays(today, 20),
      ...over,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as PermitDetail;
}

beforeAll(async () => {
  // A project of the client-user's client, so the client-user sees these permits too.
  const client = await signedIn(b, DEMO.clientUser);
  const seen = (await (
    await client.request.get(`${BASE_URL}/api/permits?group=none&page_size=1`)
  ).json()) as PermitList;
  projectId = seen.items[0]!.project!.id;
  await client.context().close();

  const admin = await signedIn(b, DEMO.companyAdmin);
  const me = await (await admin.request.get(`${BASE_URL}/api/me`)).json();
  today = new Intl.DateTimeFormat("en-CA", { timeZone: me.company?.timeZone ?? "UTC" }).format(new Date());
  const options = (await (
    await admin.request.get(`${BASE_URL}/api/permits/form-options`)
  ).json()) as PermitFormOptions;
  const sam = options.staff.find((u) => u.name === "Sam Baker")!;
  companyUserId = sam.id;
  companyUserName = sam.name;
  made.renew = await createPermit(admin.request, "renew", {
    renewal_lead_days: 30,
    responsible_user_id: companyUserId,
  });
  made.inspect = await createPermit(admin.request, "inspect", {
    expiry_rule: "after_inspection",
    expiry_days: 180,
    expiration_date: addDays(today, 10),
  });
  made.ack = await createPermit(admin.request, "ack", {
    renewal_lead_days: 14,
    expiration_date: addDays(today, 30),
  });
  made.link = await createPermit(admin.request, "link", {
    renewal_lead_days: 10,
    expiration_date: addDays(today, 25),
  });
  made.close = await createPermit(admin.request, "close");
  made.form = await createPermit(admin.request, "form", { expiration_date: addDays(today, 120) });
  await admin.context().close();
});

describe("renew and extend", () => {
  it("extends, then renews with a fee, a note and a file, and shows every term", async () => {
    const permit = made.renew!;
    const page = await signedIn(b, DEMO.companyUser);
    await page.goto(`${BASE_URL}/permits/${permit.id}`);
    const renewal = region(page, "Renewal");
    await expect.poll(() => renewal.getByText("Sam Baker").isVisible()).toBe(true);
    await expect(renewal.getByText(day(addDays(today, -10))).isVisible()).resolves.toBe(true); // renew-by

    // Extend: same term, a later date.
    await renewal.getByRole("button", { name: "Extend" }).click();
    const extend = page.getByRole("dialog", { name: "Extend Permit" });
    await extend.getByLabel("New Expiration Date").fill(addDays(today, 50));
    await extend.getByLabel("Reason").fill("Agency backlog: extension granted by letter");
    await extend.getByRole("button", { name: "Save Extension" }).click();
    // The snackbar says what changed, in the screens' words (issue 25).
    await toast(page, `Extended: term 1, expires ${day(addDays(today, 50))}`);
    await eventually(() => extend.isVisible()).toBe(false);
    // One row per term (issue 25): the extension is a sub-line of term 1, the date it replaced struck
    // through and read out as "was ...".
    const terms = region(page, "Terms");
    const extensions = terms.getByRole("list", { name: "Extensions of term 1" });
    await eventually(() => extensions.isVisible()).toBe(true);
    // Each term is one row group: its row and, across the columns, its extensions.
    await expect(terms.locator("tbody").count()).resolves.toBe(1);
    await expect(terms.getByText("Agency backlog: extension granted by letter").isVisible()).resolves.toBe(
      true,
    );
    await expect(extensions.locator("del").textContent()).resolves.toBe(`was ${day(addDays(today, 20))}`);
    await expect(extensions.textContent()).resolves.toContain(`Extended ${day(today)}:`);
    const firstTerm = terms.locator("tbody").first().getByRole("row").first();
    await expect(firstTerm.textContent()).resolves.toContain(day(addDays(today, 50)));
    await shot(page, "lifecycle-terms-extended-desktop");

    // Renew: a new term, the number kept by default, an earlier date refused in place.
    await renewal.getByRole("button", { name: "Renew" }).click();
    const renew = page.getByRole("dialog", { name: "Renew Permit" });
    await expect(renew.getByLabel("New Permit Number").inputValue()).resolves.toBe(permit.permit_number);
    await renew.getByLabel("New Expiration Date").fill(addDays(today, 10));
    await renew.getByRole("button", { name: "Save Renewal" }).click();
    await eventually(() => renew.getByText(/must be after the current one/).isVisible()).toBe(true);
    await renew.getByLabel("New Expiration Date").fill(addDays(today, 400));
    await renew.getByLabel("New Issue Date").fill(today);
    await renew.getByLabel("New Permit Number").fill(`${permit.permit_number}-R1`);
    await renew.getByLabel("Renewal Fee").fill("250");
    await renew.getByLabel("Note").fill("Renewed at the counter");
    await renew.getByLabel("Renewal file").setInputFiles({
      name: `renewal-${stamp}.txt`,
      mimeType: "text/plain",
      buffer: Buffer.from("renewed permit"),
    });
    await viewportShot(page, "lifecycle-renew-dialog-desktop");
    const requests = recordApiRequests(page);
    await renew.getByRole("button", { name: "Save Renewal" }).click();
    await toast(page, `Renewed: term 2, expires ${day(addDays(today, 400))}`);
    await eventually(() => renew.isVisible()).toBe(false);
    await eventually(() => terms.locator("tbody").count()).toBe(2); // term 1, term 2
    // The renewal's answer is the lifecycle as it is now: neither it nor the permit is fetched again.
    const sent = await requests.stop();
    expect(sent).toContain(`POST /api/permits/${permit.id}/renewals`);
    expect(sent).not.toContain(`GET /api/permits/${permit.id}`);
    expect(sent).not.toContain(`GET /api/permits/${permit.id}/lifecycle`);
    expect(sent).not.toContain(`GET /api/permits/${permit.id}/comments`);
    // The fee is internal unless unticked (issue 25): staff see it marked, the note not.
    await expect(terms.getByText("Renewed at the counter", { exact: false }).textContent()).resolves.toBe(
      "Fee $250.00Internal · Renewed at the counter",
    );
    await expect(terms.getByText(`${permit.permit_number}-R1`).isVisible()).resolves.toBe(true);
    // Term 1 ended with the renewal; nothing shows an earlier row without an end; numbers never wrap.
    await expect(firstTerm.getByRole("cell").nth(4).textContent()).resolves.toBe(day(today));
    for (const cell of await terms.getByRole("cell").all()) {
      const text = (await cell.textContent()) ?? "";
      if (text.startsWith(permit.permit_number))
        await expect(cell.evaluate((el) => getComputedStyle(el).whiteSpace)).resolves.toBe("nowrap");
    }
    await eventually(() => renewal.getByText("Term 2").isVisible()).toBe(true);
    await eventually(() =>
      region(page, "Attachments")
        .getByRole("link", { name: `renewal-${stamp}.txt`, exact: true })
        .isVisible(),
    ).toBe(true);
    await expect(page.getByRole("heading", { level: 1 }).isVisible()).resolves.toBe(true);
    await shot(page, "lifecycle-detail-desktop");

    const phone = await signedIn(b, DEMO.companyUser, PHONE);
    await phone.goto(`${BASE_URL}/permits/${permit.id}`);
    await eventually(() => region(phone, "Terms").getByText("Term 2 · Renewal").isVisible()).toBe(true);
    await expect(region(phone, "Terms").locator("del").textContent()).resolves.toBe(
      `was ${day(addDays(today, 20))}`,
    );
    await shot(phone, "lifecycle-detail-phone");
    await region(phone, "Terms").scrollIntoViewIfNeeded();
    await viewportShot(phone, "lifecycle-terms-phone");
  });
});

describe("inspections", () => {
  it("moves the expiry 180 days after a passed inspection under 'Days after last passed inspection'", async () => {
    const permit = made.inspect!;
    const page = await signedIn(b, DEMO.companyUser);
    await page.goto(`${BASE_URL}/permits/${permit.id}`);
    const inspections = region(page, "Inspections");
    await eventually(() => inspections.getByText("No inspections recorded.").isVisible()).toBe(true);
    await inspections.getByRole("button", { name: "Record Inspection" }).click();
    const dialog = page.getByRole("dialog", { name: "Record Inspection" });
    await expect(dialog.getByText(/180 days after its last passed inspection/).isVisible()).resolves.toBe(
      true,
    );
    await dialog.getByLabel("Inspection Type").fill("Final building");
    await expect(dialog.getByLabel("Date").inputValue()).resolves.toBe(today);
    await dialog.getByRole("combobox", { name: "Result" }).click();
    await page.getByRole("option", { name: "Passed" }).click();
    await dialog.getByLabel("Inspector").fill("R. Alvarez");
    await dialog.getByLabel("Notes").fill("Certificate of occupancy to follow.");
    await dialog.getByRole("button", { name: "Save Inspection" }).click();
    await toast(page, "Inspection recorded.");
    await eventually(() => inspections.getByText("Final building").isVisible()).toBe(true);
    await expect(inspections.getByText("Passed").isVisible()).resolves.toBe(true);
    // The expiry moved: shown in the timeline and as an Extension with the inspection as reason.
    const moved = addDays(today, 180);
    await eventually(() => region(page, "Timeline").getByText(day(moved)).isVisible()).toBe(true);
    const terms = region(page, "Terms");
    // The inspection's date as the screens show dates (issue 25).
    await eventually(() =>
      terms.getByText(`Final building passed on ${day(today)} (+180 days)`).isVisible(),
    ).toBe(true);
    // One term: the move is its sub-line, the date it replaced struck through.
    await expect(terms.locator("tbody").count()).resolves.toBe(1);
    await expect(terms.locator("del").textContent()).resolves.toBe(`was ${day(addDays(today, 10))}`);
    await shot(page, "lifecycle-inspection-desktop");
  });
});

describe("acknowledge", () => {
  it("acknowledges on the permit page: shown on the permit", async () => {
    const permit = made.ack!;
    const page = await signedIn(b, DEMO.companyUser);
    await page.goto(`${BASE_URL}/permits/${permit.id}`);
    const renewal = region(page, "Renewal");
    await eventually(() => renewal.getByText("Not acknowledged for this term yet").isVisible()).toBe(true);
    await renewal.getByRole("button", { name: "Acknowledge" }).click();
    await toast(page, "Acknowledged.");
    const words = new RegExp(`Acknowledged by ${companyUserName} on `);
    await eventually(() => renewal.getByText(words).isVisible()).toBe(true);
    await eventually(() => page.locator("header").getByText(words).isVisible()).toBe(true);
    await eventually(() => renewal.getByRole("button", { name: "Acknowledge" }).count()).toBe(0);
  });

  it("acknowledges from a reminder's link without signing in, only when the button is pressed", async () => {
    const permit = made.link!;
    // The server's signing key: given to it (two servers share one), or the one it made in its data folder.
    const secret =
      process.env.E2E_SESSION_SECRET ??
      fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, "session-secret"), "utf8").trim();
    const token = signAcknowledgeToken(createLinkSigner(secret), {
      permitId: permit.id,
      recipientUserId: companyUserId,
      termNo: permit.term_no,
      dueOn: countdownDate(permit.expiration_date, permit.renewal_lead_days)!,
    });
    const page = await b.newPage({ viewport: DESKTOP });
    await page.goto(`${BASE_URL}/acknowledge/${token}`);
    await eventually(() => page.getByText(permit.permit_name).isVisible()).toBe(true);
    await expect(page.getByText(day(permit.renew_by_date!)).isVisible()).resolves.toBe(true);
    await shot(page, "lifecycle-acknowledge-link-desktop");
    // Opening the page acknowledged nothing.
    const before = await page.request.get(`${BASE_URL}/api/acknowledgements/${token}`);
    expect((await before.json()).acknowledged).toBeNull();

    await page.getByRole("button", { name: "Acknowledge" }).click();
    await eventually(() => page.getByRole("heading", { name: "Thank you: acknowledged" }).isVisible()).toBe(
      true,
    );
    await expect(
      page.getByText(new RegExp(`Acknowledged by ${companyUserName} on `)).isVisible(),
    ).resolves.toBe(true);
    await shot(page, "lifecycle-acknowledge-done-desktop");

    const phone = await b.newPage({ viewport: PHONE });
    await phone.goto(`${BASE_URL}/acknowledge/${token}`);
    await eventually(() => phone.getByRole("heading", { name: "Already acknowledged" }).isVisible()).toBe(
      true,
    );
    await shot(phone, "lifecycle-acknowledge-done-phone");

    // A link that does not hold any more (a changed character) shows the server's message.
    const broken = `${token.slice(0, -2)}xx`;
    await phone.goto(`${BASE_URL}/acknowledge/${broken}`);
    await eventually(() => phone.getByText(/This Acknowledge link is not valid any more/).isVisible()).toBe(
      true,
    );
    await expect(phone.getByRole("button", { name: "Acknowledge" }).count()).resolves.toBe(0);
    await shot(phone, "lifecycle-acknowledge-invalid-phone");

    // The permit says who acknowledged.
    const staff = await signedIn(b, DEMO.companyAdmin);
    await staff.goto(`${BASE_URL}/permits/${permit.id}`);
    await eventually(() =>
      region(staff, "Renewal")
        .getByText(new RegExp(`Acknowledged by ${companyUserName} on `))
        .isVisible(),
    ).toBe(true);
  });
});

describe("close", () => {
  it("closes a permit: the history stays, read-only, and a client-user never sees the buttons", async () => {
    const permit = made.close!;
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.goto(`${BASE_URL}/permits/${permit.id}`);
    const renewal = region(page, "Renewal");
    await renewal.getByRole("button", { name: "Close Permit" }).click();
    const dialog = page.getByRole("dialog", { name: "Close Permit" });
    await expect(dialog.getByLabel("Close Date").inputValue()).resolves.toBe(today);
    await dialog.getByRole("combobox", { name: "Final Status" }).click();
    await page.getByRole("option", { name: "Finaled" }).click();
    await dialog.getByRole("button", { name: "Close Permit" }).click();
    await toast(page, "Permit closed.");
    await eventually(() => renewal.getByText(/Closed on .*\(Finaled\)/).isVisible()).toBe(true);
    for (const name of ["Renew", "Extend", "Acknowledge", "Close Permit"]) {
      await expect(renewal.getByRole("button", { name, exact: true }).count()).resolves.toBe(0);
    }
    await expect(
      region(page, "Inspections").getByRole("button", { name: "Record Inspection" }).count(),
    ).resolves.toBe(0);
    await expect(region(page, "Terms").getByText(day(today)).first().isVisible()).resolves.toBe(true); // ended today

    const client = await signedIn(b, DEMO.clientUser);
    for (const id of [made.renew!.id, made.inspect!.id]) {
      await client.goto(`${BASE_URL}/permits/${id}`);
      await eventually(() => region(client, "Terms").getByRole("row").count()).toBeGreaterThan(1);
      await expect(region(client, "Inspections").isVisible()).resolves.toBe(true);
      expect(await client.getByRole("group", { name: "Permit actions" }).count()).toBe(0);
      expect(await client.getByRole("button", { name: "Record Inspection" }).count()).toBe(0);
    }
    await eventually(() => region(client, "Inspections").getByText("Final building").isVisible()).toBe(true);
    await shot(client, "lifecycle-client-view-desktop");
  });
});

describe("the permit form", () => {
  it("sets the responsible person, the inspection rule (180 days when chosen) and a lead time", async () => {
    const permit = made.form!;
    const page = await signedIn(b, DEMO.companyUser);
    await page.goto(`${BASE_URL}/permits/${permit.id}/edit`);
    const section = region(page, "Responsibility and Renewal");
    await section.getByRole("combobox", { name: "Responsible Person" }).click();
    await page.getByRole("option", { name: "Sam Baker" }).click();
    await expect(section.getByLabel("Days", { exact: true }).count()).resolves.toBe(0);
    await section.getByRole("combobox", { name: "Expiry Rule" }).click();
    await page.getByRole("option", { name: "Days after last passed inspection" }).click();
    await expect(section.getByLabel("Days", { exact: true }).inputValue()).resolves.toBe("180");
    await section.getByLabel("Renewal Lead Time (days)").fill("21");
    await section.scrollIntoViewIfNeeded();
    await viewportShot(page, "lifecycle-permit-form-desktop");
    await page.getByRole("button", { name: "Update Permit" }).click();
    await page.waitForURL(new RegExp(`/permits/${permit.id}$`));
    const renewal = region(page, "Renewal");
    await eventually(() => renewal.getByText("180 days after last passed inspection").isVisible()).toBe(true);
    await expect(renewal.getByText("Sam Baker").isVisible()).resolves.toBe(true);
    await expect(renewal.getByText(day(addDays(today, 99))).isVisible()).resolves.toBe(true);
  });
});

describe("the All Permits list", () => {
  it("shows Renew By and Responsible, the acknowledgement marker, the Renewal Due tile and the Responsible filter", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    await page.goto(`${BASE_URL}/permits?q=${stamp}&group=none&sort=renew_by_date`);
    const table = page.getByRole("table", { name: "Permits" });
    await eventually(() => table.getByText(made.ack!.permit_name).isVisible()).toBe(true);
    for (const name of ["Renew By", "Responsible"]) {
      await expect(table.getByRole("columnheader", { name }).isVisible()).resolves.toBe(true);
    }
    const ackRow = table.getByRole("row").filter({ hasText: made.ack!.permit_name });
    await expect(ackRow.getByText(day(addDays(today, 16))).isVisible()).resolves.toBe(true);
    await expect(
      ackRow.getByRole("img", { name: new RegExp(`Acknowledged by ${companyUserName} on `) }).isVisible(),
    ).resolves.toBe(true);

    // Renewal Due: renew-by within 30 days or passed; the renewed and the closed permits are not.
    const tiles = page.getByRole("group", { name: /Summary/ });
    await tiles.getByRole("button", { name: /Renewal Due/ }).click();
    await page.waitForURL(/tile=renewal_due/);
    await eventually(() => table.getByText(made.link!.permit_name).isVisible()).toBe(true);
    await expect(table.getByText(made.ack!.permit_name).isVisible()).resolves.toBe(true);
    await eventually(() => table.getByText(made.renew!.permit_name).count()).toBe(0);
    await expect(table.getByText(made.close!.permit_name).count()).resolves.toBe(0);
    await shot(page, "lifecycle-list-renewal-due-desktop");
    // With the two new columns a company's table still fits 1280 px: no sideways scroll to reach Edit.
    for (const url of [`${BASE_URL}/permits?group=none`, `${BASE_URL}/permits`]) {
      await page.goto(url);
      await eventually(() => table.getByRole("row").count()).toBeGreaterThan(3);
      const overflow = await page.evaluate(() => {
        const t = document.querySelector("table[aria-label=Permits]")!;
        return t.scrollWidth - t.parentElement!.clientWidth;
      });
      expect(overflow, url).toBeLessThanOrEqual(0);
    }
    await shot(page, "lifecycle-list-grouped-desktop");
    await page.goto(`${BASE_URL}/permits?q=${stamp}&group=none&sort=renew_by_date&tile=renewal_due`);
    await eventually(() => table.getByText(made.ack!.permit_name).isVisible()).toBe(true);

    // Responsible: Me.
    await tiles.getByRole("button", { name: /Total Permits/ }).click();
    await page.getByRole("combobox", { name: "Responsible" }).click();
    await page.getByRole("option", { name: "Me", exact: true }).click();
    await page.waitForURL(/responsible=me/);
    await eventually(() => table.getByText(made.form!.permit_name).isVisible()).toBe(true);
    await expect(table.getByText(made.renew!.permit_name).isVisible()).resolves.toBe(true);
    await eventually(() => table.getByText(made.ack!.permit_name).count()).toBe(0);

    const phone = await signedIn(b, DEMO.companyUser, PHONE);
    await phone.goto(`${BASE_URL}/permits?q=${stamp}&group=none&tile=renewal_due`);
    await eventually(() =>
      phone.getByRole("article", { name: new RegExp(made.ack!.permit_name) }).isVisible(),
    ).toBe(true);
    await shot(phone, "lifecycle-list-phone");
  });
});

describe("templates and notification settings", () => {
  it("keeps a template's expiry defaults, and the company's Escalation Days and Overdue digest", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.goto(`${BASE_URL}/admin/permit-templates`);
    const add = page.getByRole("form", { name: "Add template" });
    await add.getByLabel("New Template Name").fill(`Building ${stamp}`);
    await add.getByRole("combobox", { name: "Expiry Rule" }).click();
    await page.getByRole("option", { name: "Days after last passed inspection" }).click();
    await expect(add.getByLabel("Days", { exact: true }).inputValue()).resolves.toBe("180");
    await add.getByLabel("Renewal Lead Time (days)").fill("30");
    await add.getByRole("button", { name: "Add" }).click();
    await toast(page, "Template added.");
    const row = page.getByRole("row").filter({ hasText: `Building ${stamp}` });
    await eventually(() =>
      row.getByText("180 days after last passed inspection · renew 30 days before").isVisible(),
    ).toBe(true);
    await shot(page, "lifecycle-templates-desktop");

    await page.goto(`${BASE_URL}/settings/notifications`);
    const days = page.getByLabel("Escalation Days");
    await eventually(() => days.inputValue()).toBe("7");
    const digest = page.getByLabel("Overdue digest");
    await expect(digest.isChecked()).resolves.toBe(true);
    await days.fill("0");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await eventually(() =>
      page.getByText("Escalation Days must be a whole number from 1 to 90").isVisible(),
    ).toBe(true);
    await days.fill("10");
    await digest.click();
    await page.getByRole("button", { name: "Save Settings" }).click();
    await toast(page, "Notification settings saved successfully.");
    await page.reload();
    await eventually(() => page.getByLabel("Escalation Days").inputValue()).toBe("10");
    await expect(page.getByLabel("Overdue digest").isChecked()).resolves.toBe(false);
    await shot(page, "lifecycle-notification-settings-desktop");
    // Back to the defaults for the specs that follow.
    await page.getByLabel("Escalation Days").fill("7");
    await page.getByLabel("Overdue digest").click();
    await page.getByRole("button", { name: "Save Settings" }).click();
    await toast(page, "Notification settings saved successfully.");
    // The template goes too: a new project of the demo company gets a permit per template, and the
    // project specs count them.
    const { templates } = (await (await page.request.get(`${BASE_URL}/api/templates`)).json()) as {
      templates: { id: string; name: string }[];
    };
    const mine = templates.find((t) => t.name === `Building ${stamp}`)!;
    const gone = await page.request.delete(`${BASE_URL}/api/templates/${mine.id}`, { headers: CSRF });
    expect(gone.status()).toBe(204);
  });
});
