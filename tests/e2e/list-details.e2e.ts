import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { addDays } from "../../shared/domain/dates.ts";
import type { PermitList, PermitSummary } from "../../shared/schemas/permits.ts";
import {
  BASE_URL,
  DEMO,
  dismissToasts,
  eventually,
  screenshot,
  shot,
  signedIn,
  useBrowser,
} from "./support.ts";

/**
 * Issue 25, the smaller things of item 7 on the All Permits list and a permit's page: the keyboard
 * reaches Renew right after the heading, which takes the focus after a move; the toolbar's select
 * values are whole at 1280 px; the tiles say how they add up; red dots only for what has expired;
 * a passed Renew By reads as overdue; a saved view deleted from its chip comes back with Undo; the
 * project dashboard speaks the list's words.
 */
const b = useBrowser({ viewport: { width: 1280, height: 800 } });
const CSRF = { "x-requested-with": "permitrack" };
const stamp = Date.now().toString(36);

const api = async <T>(page: Page, url: string): Promise<T> => {
  const res = await page.request.get(`${BASE_URL}${url}`);
  expect(res.status(), url).toBe(200);
  return (await res.json()) as T;
};

describe("the keyboard and the focus", () => {
  it("moves the focus to a permit page's heading, and reaches Renew within three Tab stops", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    const list = await api<PermitList>(page, "/api/permits?group=none&tile=active&page_size=50");
    let permit: PermitList["items"][number] | null = null;
    for (const p of list.items.filter((i) => i.record_type === "permit")) {
      const life = await api<{ can: { renew: boolean } }>(page, `/api/permits/${p.id}/lifecycle`);
      if (life.can.renew) {
        permit = p;
        break;
      }
    }
    expect(permit).not.toBeNull();
    // From the list, as a person goes: the Details link (the focus sits on it until the page moves it).
    await page.goto(`${BASE_URL}/permits?group=none&q=${encodeURIComponent(permit!.permit_number)}`);
    await page
      .getByRole("link", { name: `Details of ${permit!.permit_number} ${permit!.permit_name}` })
      .click();
    await page.waitForURL(new RegExp(`/permits/${permit!.id}$`));
    const heading = page.getByRole("heading", { level: 1 });
    await eventually(() => heading.evaluate((h) => h === document.activeElement)).toBe(true);
    const renew = page.getByRole("group", { name: "Permit actions" }).getByRole("button", { name: "Renew" });
    await renew.waitFor();
    let stops = 0;
    for (; stops < 16; stops++) {
      if (await renew.evaluate((el) => el === document.activeElement)) break;
      await page.keyboard.press("Tab");
    }
    expect(stops, "Tab stops from the heading to Renew").toBeLessThanOrEqual(3);
    // The actions card comes before the facts in the page's order.
    const order = await page.evaluate(() => {
      const renewal = Array.from(document.querySelectorAll("h2")).find((h) => h.textContent === "Renewal");
      const project = Array.from(document.querySelectorAll("h2")).find(
        (h) => h.textContent === "Project Info",
      );
      return (
        !!renewal &&
        !!project &&
        !!(renewal.compareDocumentPosition(project) & Node.DOCUMENT_POSITION_FOLLOWING)
      );
    });
    expect(order, "Renewal before Project Info").toBe(true);
    await shot(page, "permit-page-actions-first-1280");
  });
});

describe("the list's toolbar and tiles at 1280 px", () => {
  it("shows the Type, Status and Group by values whole", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.goto(`${BASE_URL}/permits?record_type=bond&show_non_required=1`);
    await page.getByRole("region", { name: "Permits list" }).locator("tbody tr").first().waitFor();
    for (const name of ["Type", "Status", "Group by"]) {
      const box = page.getByRole("combobox", { name });
      await box.waitFor();
      const cut = await box.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(cut, `${name} (${await box.textContent()}) is cut by ${cut} px`).toBeLessThanOrEqual(0);
    }
    expect(await page.getByRole("combobox", { name: "Type" }).textContent()).toBe("Bond / Guarantee");
    expect(await page.getByRole("combobox", { name: "Status" }).textContent()).toBe("All statuses");
    expect(await page.getByRole("combobox", { name: "Group by" }).textContent()).toBe("Client and project");
  });

  it("says how the tiles add up: the stages make the total, the others count within it", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    const summary = await api<PermitSummary>(page, "/api/permits/summary");
    const inProgress = summary.by_status.find((s) => s.category === "In Progress")!.count;
    const tiles = page.getByRole("group", { name: /^Summary/ });
    await eventually(() => tiles.getByText(/permits = /).isVisible()).toBe(true);
    const sentence = (await tiles.getByText(/permits = /).textContent())!;
    const n = (v: number) => v.toLocaleString("en-US");
    expect(sentence).toContain(
      `${n(summary.total)} permits = ${n(inProgress)} In Progress + ${n(summary.in_review)} In Review + ${n(summary.active)} Active`,
    );
    const rest = summary.total - inProgress - summary.in_review - summary.active;
    if (rest > 0) expect(sentence).toContain(`+ ${n(rest)} with no stage dates`);
    expect(await tiles.getByText("By stage", { exact: true }).isVisible()).toBe(true);
    expect(await tiles.getByText("Within the total", { exact: true }).isVisible()).toBe(true);
    await screenshot(page, "tiles-add-up-1280");
  });

  it("colours only expired permits' dots red: the Expiring list's are amber", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.goto(`${BASE_URL}/permits?tile=expiring_soon`);
    const dots = page.locator("[data-dot]");
    await eventually(() => dots.count()).toBeGreaterThan(0);
    const kinds = new Set(await dots.evaluateAll((els) => els.map((el) => el.getAttribute("data-dot"))));
    expect(kinds).toEqual(new Set(["expiring"]));
    const colours = new Set(
      await dots.evaluateAll((els) => els.map((el) => getComputedStyle(el).backgroundColor)),
    );
    expect(colours.size).toBe(1);
    const red = await page.evaluate(() => {
      const probe = document.createElement("span");
      probe.className = "permit-dot permit-dot-expired";
      document.querySelector(".permit-dots")!.append(probe);
      const colour = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return colour;
    });
    expect(colours.has(red)).toBe(false);
    await page.goto(`${BASE_URL}/permits?tile=expired`);
    await eventually(() => page.locator('[data-dot="expired"]').count()).toBeGreaterThan(0);
  });
});

describe("a passed Renew By", () => {
  it("reads as overdue in the list, as the other overdue dates do", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    const me = await api<{ company?: { timeZone: string } }>(page, "/api/me");
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: me.company?.timeZone ?? "UTC" }).format(
      new Date(),
    );
    const projectId = (await api<PermitList>(page, "/api/permits?group=none&page_size=1")).items[0]!.project!
      .id;
    const make = async (name: string, lead: number) => {
      const res = await page.request.post(`${BASE_URL}/api/permits`, {
        headers: CSRF,
        data: {
          permit_number: `RB-${name}-${stamp}`.toUpperCase(),
          permit_name: `Renew By ${name} ${stamp}`,
          record_type: "permit",
          agency: "City of Boulder",
          project_id: projectId,
          expiration_date: addDays(today, 10),
          renewal_lead_days: lead,
        },
      });
      expect(res.status(), await res.text()).toBe(201);
    };
    await make("Passed", 30); // renew by 20 days ago
    await make("Coming", 5); // renew by in 5 days
    await page.goto(`${BASE_URL}/permits?q=${stamp}&group=none`);
    const row = (name: string) => page.getByRole("row").filter({ hasText: `Renew By ${name} ${stamp}` });
    await eventually(() => row("Passed").isVisible()).toBe(true);
    const passed = row("Passed").locator(".permit-renew-overdue");
    expect(await passed.count()).toBe(1);
    expect(await passed.textContent()).toContain("(overdue)");
    expect(await row("Coming").locator(".permit-renew-overdue").count()).toBe(0);
    await screenshot(page, "renew-by-overdue-1280");
  });
});

describe("a saved view's chip", () => {
  it("deletes the view at once and brings it back with Undo", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    const name = `Undo me ${stamp}`;
    const res = await page.request.post(`${BASE_URL}/api/saved-views`, {
      headers: CSRF,
      data: { name, params: { record_type: "bond" } },
    });
    expect(res.status(), await res.text()).toBe(201);
    await page.goto(`${BASE_URL}/permits`);
    const views = page.getByRole("region", { name: "Views" });
    const chip = views.getByRole("button", { name });
    await chip.waitFor();
    await chip.locator(".MuiChip-deleteIcon").click();
    await eventually(() => chip.count()).toBe(0);
    const message = page.locator(".MuiSnackbar-root");
    await eventually(() => message.getByText("View deleted.").isVisible()).toBe(true);
    await message.getByRole("button", { name: "Undo" }).click();
    await eventually(() => views.getByRole("button", { name }).isVisible()).toBe(true);
    await dismissToasts(page);
  });
});

describe("the project dashboard", () => {
  it("uses the list's words: In Review, '+ New Permit'", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    const list = await api<PermitList>(page, "/api/permits?page_size=5");
    const project = list.groups.flatMap((g) => g.projects).find((p) => p.project)!.project!;
    await page.goto(`${BASE_URL}/projects/${project.id}/dashboard`);
    await eventually(() => page.getByRole("heading", { name: "Analytics Dashboard" }).isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "+ New Permit", exact: true }).isVisible()).toBe(true);
    expect(await page.getByText(/In Review: \d+/).isVisible()).toBe(true);
    expect(await page.getByText(/In Waiting: \d+/).count()).toBe(0);
    expect(await page.getByText("+ Create New Permit").count()).toBe(0);
  });
});

describe("the Bonds page", () => {
  it("shows every total in the company's currency", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.goto(`${BASE_URL}/bonds`);
    const tiles = page.getByRole("region", { name: "Summary" });
    const exposure = tiles.getByRole("heading", { name: "Open Exposure", exact: true }).locator("xpath=..");
    await eventually(() => exposure.textContent()).toMatch(/\$[\d,]+\.\d\d/);
    await page.getByRole("region", { name: "Bonds list" }).locator("tbody tr").first().waitFor();
    // No amount anywhere on the page without its currency (the tiles said "0.00" before).
    expect(
      await page
        .locator("main")
        .getByText(/^[\d,]+\.\d\d$/)
        .allTextContents(),
    ).toEqual([]);
    await shot(page, "bonds-page-1280");
  });
});
