import fs from "node:fs";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import type { APIRequestContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../shared/domain/dates.ts";
import type { PermitConditions } from "../../shared/schemas/conditions.ts";
import type { PermitDetail, PermitList } from "../../shared/schemas/permits.ts";
import {
  BASE_URL,
  DEMO,
  PHONE,
  SCREENSHOT_DIR,
  dismissToasts,
  eventually,
  expectAccessible,
  signedIn,
  toast,
  useBrowser,
} from "./support.ts";

/**
 * Issue 29: conditions of approval as tasks. A weekly condition asking for a photo, its first task
 * completed with a photo on a phone, the next task shown; a rain event logged on the project makes
 * the task of an 'After an event' condition, found under 'Tasks Due'; a client-user reads the card.
 * Every record is this spec's own (its stamp), made through the API, so it runs beside the others.
 */
const DESKTOP = { width: 1280, height: 800 };
const b = useBrowser({ viewport: DESKTOP });
const stamp = Date.now().toString(36);
const CSRF = { "x-requested-with": "permitrack" };
/** Where the screenshots go (SHOTS_DIR for a closing note's, else the runner's folder). */
const SHOTS = process.env.SHOTS_DIR ?? SCREENSHOT_DIR;
const RAIN = "Rain ≥ 0.25 in";

async function shoot(page: Page, name: string, opts: { fullPage?: boolean } = {}) {
  await dismissToasts(page);
  await expectAccessible(page, name);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: opts.fullPage ?? false });
}

/** A real PNG (24 × 16, a green and white stripe) made here: what a phone camera's photo stands in for. */
function pngPhoto(): Buffer {
  const width = 24;
  const height = 16;
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0); // no filter
    for (let x = 0; x < width; x++) rows.push(...(y < height / 2 ? [0, 168, 132] : [255, 255, 255]));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.from(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A day as the screens show it ("Dec 3, 2026"): the browser's locale is US English here. */
const shown = (day: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );

let today = "";
let projectId = "";
let permit: PermitDetail;

async function createPermit(request: APIRequestContext, data: Record<string, unknown>) {
  const res = await request.post(`${BASE_URL}/api/permits`, { headers: CSRF, data });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as PermitDetail;
}

beforeAll(async () => {
  // A project of the client-user's client, so the client-user sees this spec's permit too.
  const client = await signedIn(b, DEMO.clientUser);
  const seen = (await (
    await client.request.get(`${BASE_URL}/api/permits?group=none&page_size=1`)
  ).json()) as PermitList;
  projectId = seen.items[0]!.project!.id;
  await client.context().close();

  const admin = await signedIn(b, DEMO.companyAdmin);
  const me = await (await admin.request.get(`${BASE_URL}/api/me`)).json();
  today = new Intl.DateTimeFormat("en-CA", { timeZone: me.company?.timeZone ?? "UTC" }).format(new Date());
  permit = await createPermit(admin.request, {
    project_id: projectId,
    record_type: "permit",
    agency: "Boulder County",
    permit_number: `COA-${stamp}`.toUpperCase(),
    permit_name: `Stormwater permit ${stamp}`,
    issue_date: addDays(today, -30),
    expiration_date: addDays(today, 300),
  });
  await admin.context().close();
});

const card = (page: Page) => page.getByRole("region", { name: "Conditions" });
const condition = (page: Page, title: string) => card(page).getByRole("listitem", { name: title });

describe("a weekly condition with a photo, completed on a phone", () => {
  it("adds the condition, completes its first task with a photo from the camera input and shows the next", async () => {
    const page = await signedIn(b, DEMO.companyAdmin, PHONE);
    await page.goto(`${BASE_URL}/permits/${permit.id}`);
    await card(page).getByRole("button", { name: "Add Condition" }).click();

    const dialog = page.getByRole("dialog", { name: "Add Condition" });
    const title = `Inspect erosion controls ${stamp}`;
    await dialog.getByLabel("Title").fill(title);
    await dialog
      .getByLabel("Description")
      .fill("Silt fence, inlet protection and the construction entrance.");
    await dialog.getByRole("combobox", { name: "Evidence Required" }).click();
    await page.getByRole("option", { name: "Photo" }).click();
    await dialog.getByRole("radio", { name: "Every" }).check();
    await dialog.getByLabel("Interval").fill("1");
    await dialog.getByRole("combobox", { name: "Unit" }).click();
    await page.getByRole("option", { name: "Weeks" }).click();
    await dialog.getByLabel("Starting").fill(today);
    // A field the server checks: Ends before Starting is refused under the field, nothing saved.
    await dialog.getByLabel("Ends").fill(addDays(today, -1));
    await dialog.getByRole("button", { name: "Save Condition" }).click();
    await expect.poll(() => dialog.getByText("Ends must be on or after Starting").isVisible()).toBe(true);
    await dialog.getByLabel("Ends").fill("");
    await dialog.getByRole("button", { name: "Save Condition" }).click();
    await toast(page, /Condition added/);
    await eventually(() => dialog.isVisible()).toBe(false);

    const item = condition(page, title);
    await eventually(() => item.getByText(`Due ${shown(today)}`).isVisible()).toBe(true);
    await eventually(() => item.getByText("Photo required").isVisible()).toBe(true);
    await shoot(page, "conditions-card-390", { fullPage: false });

    await item.getByRole("button", { name: "Complete" }).click();
    const complete = page.getByRole("dialog", { name: "Complete Task" });
    // Saved without the photo: refused, and said so.
    await complete.getByRole("button", { name: "Save" }).click();
    await eventually(() => complete.getByText("Evidence is required: attach a photo").isVisible()).toBe(true);

    const input = complete.getByLabel("Photo", { exact: true });
    expect(await input.getAttribute("accept")).toBe("image/*");
    expect(await input.getAttribute("capture")).toBe("environment");
    await complete.getByLabel("Note").fill("All controls in place; fence repaired at the north gate.");
    await input.setInputFiles({ name: "erosion-controls.png", mimeType: "image/png", buffer: pngPhoto() });
    await eventually(() => complete.getByText("erosion-controls.png").isVisible()).toBe(true);
    await shoot(page, "complete-task-390");
    await complete.getByRole("button", { name: "Save" }).click();
    await toast(page, /Task completed/);
    await eventually(() => complete.isVisible()).toBe(false);

    // The next week's task is open; the first is done, by whom, with its photo.
    await eventually(() => item.getByText(`Due ${shown(addDays(today, 7))}`).isVisible()).toBe(true);
    await eventually(() => item.getByText(/Completed by/).isVisible()).toBe(true);
    await eventually(() => item.getByRole("link", { name: "erosion-controls.png" }).isVisible()).toBe(true);
    const conditions = (await (
      await page.request.get(`${BASE_URL}/api/permits/${permit.id}/conditions`)
    ).json()) as PermitConditions;
    const saved = conditions.conditions.find((c) => c.title === title)!;
    expect(saved.tasks.map((t) => [t.status, t.dueOn])).toEqual([
      ["open", addDays(today, 7)],
      ["done", today],
    ]);
    const photo = await page.request.get(`${BASE_URL}/api/tasks/${saved.tasks[1]!.id}/evidence`);
    expect(photo.status()).toBe(200);
    expect(Buffer.from(await photo.body()).equals(pngPhoto())).toBe(true);
    // The phone's page does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shoot(page, "conditions-card-next-task-390");

    // The same card and dialog on a laptop.
    const desk = await signedIn(b, DEMO.companyAdmin, DESKTOP);
    await desk.goto(`${BASE_URL}/permits/${permit.id}`);
    await eventually(() =>
      condition(desk, title)
        .getByText(`Due ${shown(addDays(today, 7))}`)
        .isVisible(),
    ).toBe(true);
    await card(desk).scrollIntoViewIfNeeded();
    await shoot(desk, "conditions-card-1280");
    await condition(desk, title).getByRole("button", { name: "Complete" }).click();
    await eventually(() => desk.getByRole("dialog", { name: "Complete Task" }).isVisible()).toBe(true);
    await shoot(desk, "complete-task-1280");
    await desk.getByRole("dialog", { name: "Complete Task" }).getByRole("button", { name: "Cancel" }).click();
  });
});

describe("a rain event logged on the project", () => {
  it("makes the task of an 'After an event' condition, shown under Tasks Due", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    const title = `Re-inspect after rain ${stamp}`;
    const res = await page.request.post(`${BASE_URL}/api/permits/${permit.id}/conditions`, {
      headers: CSRF,
      data: {
        title,
        evidence: "none",
        schedule: "after_event",
        offsetAmount: 24,
        offsetUnit: "hours",
        eventKind: RAIN,
      },
    });
    expect(res.status(), await res.text()).toBe(201);

    await page.goto(`${BASE_URL}/projects/${projectId}/dashboard`);
    await page.getByRole("button", { name: "Log Event" }).click();
    const dialog = page.getByRole("dialog", { name: "Log Event" });
    await dialog.getByLabel("Kind").fill(RAIN);
    // The field starts at now, in the company's zone.
    const now = await dialog.getByLabel("Date and Time").inputValue();
    expect(now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    await dialog.getByLabel("Note").fill(`0.4 in overnight (${stamp})`);
    await shoot(page, "log-event-1280");
    await dialog.getByRole("button", { name: "Log Event" }).click();
    await toast(page, /Rain ≥ 0\.25 in logged: \d+ tasks? created/);

    // The dashboard's Tasks card lists it.
    const tasks = page.getByRole("region", { name: "Tasks" });
    await eventually(() => tasks.getByText(title).first().isVisible()).toBe(true);
    await shoot(page, "project-dashboard-tasks-1280", { fullPage: true });

    // All Permits: the Tasks Due tile shows the permit, and so does the Tasks filter.
    await page.goto(`${BASE_URL}/permits?q=${encodeURIComponent(permit.permit_number)}`);
    const tile = page.getByRole("group", { name: /^Summary/ }).getByRole("button", { name: /^Tasks Due/ });
    await tile.click();
    await page.waitForURL(/tile=tasks/);
    await eventually(() => page.getByText(permit.permit_number).first().isVisible()).toBe(true);
    expect(await tile.getAttribute("aria-pressed")).toBe("true");
    await shoot(page, "list-tasks-due-1280");
    await page.goto(`${BASE_URL}/permits?tasks=due&q=${encodeURIComponent(permit.permit_number)}`);
    await eventually(() => page.getByText(permit.permit_number).first().isVisible()).toBe(true);

    // On a phone: the summary row says it and the tile filters.
    const phone = await signedIn(b, DEMO.companyAdmin, PHONE);
    await phone.goto(`${BASE_URL}/permits?q=${encodeURIComponent(permit.permit_number)}`);
    await eventually(() =>
      phone
        .getByText(/Tasks Due/)
        .first()
        .isVisible(),
    ).toBe(true);
    await phone.getByRole("button", { name: /^\d+ permits?/ }).click();
    await phone
      .getByRole("group", { name: /^Summary/ })
      .getByRole("button", { name: /^Tasks Due/ })
      .click();
    await phone.waitForURL(/tile=tasks/);
    await eventually(() => phone.getByText(permit.permit_number).first().isVisible()).toBe(true);
    await shoot(phone, "list-tasks-due-390");
    await phone.goto(`${BASE_URL}/projects/${projectId}/dashboard`);
    await eventually(() => phone.getByRole("button", { name: "Log Event" }).isVisible()).toBe(true);
    await shoot(phone, "project-dashboard-390");
  });
});

describe("a client-user", () => {
  it("reads the Conditions card without its actions", async () => {
    const admin = await signedIn(b, DEMO.companyAdmin);
    const title = `Keep the permit card posted ${stamp}`;
    const res = await admin.request.post(`${BASE_URL}/api/permits/${permit.id}/conditions`, {
      headers: CSRF,
      data: { title, evidence: "photo", schedule: "once", dueDate: addDays(today, 3) },
    });
    expect(res.status(), await res.text()).toBe(201);
    const page = await signedIn(b, DEMO.clientUser);
    await page.goto(`${BASE_URL}/permits/${permit.id}`);
    await eventually(() =>
      condition(page, title)
        .getByText(`Due ${shown(addDays(today, 3))}`, { exact: true })
        .isVisible(),
    ).toBe(true);
    expect(await card(page).getByRole("button", { name: "Add Condition" }).count()).toBe(0);
    expect(await card(page).getByRole("button", { name: "Complete" }).count()).toBe(0);
    expect(
      await card(page)
        .getByRole("button", { name: /^Edit / })
        .count(),
    ).toBe(0);
  });
});
