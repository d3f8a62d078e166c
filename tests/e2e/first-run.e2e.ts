import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLEAR_FILTERS, EMPTY_STATES, GETTING_STARTED, stepLabel } from "../../shared/domain/empty-states.ts";
import { startFreshServer, type FreshServer } from "./fresh-server.ts";
import { currentCode, eventually, PHONE, rememberTotp, shot, useBrowser, type Viewport } from "./support.ts";

/**
 * Issue 25, a first run that leads somewhere: a new install (a server of this spec's own on an empty
 * database), after the forced password change and two-factor set-up, shows the getting-started
 * steps instead of 13 filters and "No permits match these filters."; '+ New Permit' leads to a
 * company; the Bonds page and the Admin Dashboard say the same; each step is ticked as it is done,
 * for the platform and for a new company's people; a client-user reads "No permits yet."; once
 * there is data, filters that leave nothing say so and 'Clear Filters' brings the rows back.
 */
const LAPTOP: Viewport = { width: 1280, height: 800 };
const b = useBrowser({ viewport: LAPTOP });
const ADMIN = "first-run.admin@permitrack.example";
const NEW_PASSWORD = "first-run-pass-1";
const COMPANY = "Juniper Civil Works";
const STEPS = GETTING_STARTED.steps;
let server: FreshServer;

beforeAll(async () => {
  server = await startFreshServer(ADMIN);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const at = (p: string) => `${server.url}${p}`;

/** Each person signs in once; every later page (tests close theirs) starts from the same session. */
const sessions = new Map<string, Awaited<ReturnType<BrowserContext["cookies"]>>>();
async function keep(page: Page, email: string) {
  sessions.set(email, await page.context().cookies());
}
async function as(email: string, viewport: Viewport = LAPTOP, path = "/permits"): Promise<Page> {
  const page = await b.newPage({ viewport });
  await page.context().addCookies(sessions.get(email)!);
  await page.goto(at(path));
  return page;
}

/** Signs in on the fresh server (a company's people: no second factor) and keeps the session. */
async function signInAt(email: string, password: string): Promise<Page> {
  const page = await b.newPage();
  await page.goto(at("/login"));
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(/\/permits$/, { timeout: 20_000 });
  await keep(page, email);
  return page;
}

/** An API write as the page's user (the CSRF header the app sends). */
async function post(page: Page, path: string, data: unknown) {
  const res = await page.request.post(at(path), { data, headers: { "x-requested-with": "permitrack" } });
  expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}

const steps = (page: Page) => page.getByRole("list", { name: GETTING_STARTED.title }).getByRole("listitem");

/** The three steps' words and whether each is ticked (the tick is also said: "(done)"). */
async function readSteps(page: Page) {
  const items = steps(page);
  await eventually(() => items.count()).toBe(3);
  const read = async (i: number) => ({
    text: (await items.nth(i).innerText()).replace(/\s+/g, " ").trim(),
    done: (await items.nth(i).getAttribute("data-done")) === "true",
  });
  return Promise.all([read(0), read(1), read(2)]);
}

const expectSteps = async (page: Page, done: [boolean, boolean, boolean]) => {
  const read = await readSteps(page);
  const labels = [stepLabel(STEPS.company), stepLabel(STEPS.clientAndProject), stepLabel(STEPS.permits)];
  read.forEach((step, i) => {
    expect(step.text.startsWith(labels[i]!), `${step.text} starts with ${labels[i]}`).toBe(true);
    expect(step.done, labels[i]).toBe(done[i]);
    // The tick is said too, not only drawn.
    expect(step.text.includes(`(${GETTING_STARTED.done})`), labels[i]).toBe(done[i]);
  });
};

/** No tiles, charts or filters: the page shows them once there is data. */
async function expectNoListControls(page: Page) {
  for (const control of [
    page.getByRole("group", { name: /^Summary/ }),
    page.getByLabel("Search permits"),
    page.getByRole("heading", { name: "Analytics Dashboard" }),
    page.getByText(EMPTY_STATES.permits.filtered),
  ])
    expect(await control.count()).toBe(0);
}

describe("a new install", () => {
  it("after the new password and two-factor set-up, shows the steps, not filters over nothing", async () => {
    const admin = await b.newPage();
    await admin.goto(at("/login"));
    await admin.getByLabel("Email").fill(ADMIN);
    await admin.getByLabel("Password", { exact: true }).fill(server.adminPassword);
    await admin.getByRole("button", { name: "Sign In" }).click();
    await admin.waitForURL(/\/reset-password$/);
    await admin.getByLabel("New Password", { exact: true }).fill(NEW_PASSWORD);
    await admin.getByLabel("Confirm New Password").fill(NEW_PASSWORD);
    await admin.getByRole("button", { name: "Reset Password" }).click();
    await admin.waitForURL(/\/two-factor-setup$/, { timeout: 15_000 });
    await admin.getByLabel("Current Password").fill(NEW_PASSWORD);
    await admin.getByRole("button", { name: "Continue" }).click();
    const key = admin.getByRole("group", { name: "Manual key" }).locator("code");
    await key.waitFor();
    rememberTotp(ADMIN, (await key.textContent())!.replace(/\s+/g, ""));
    await admin.getByLabel("Authentication Code").fill(await currentCode(ADMIN));
    await admin.getByRole("button", { name: "Verify" }).click();
    await eventually(() => admin.getByRole("list", { name: "Recovery codes" }).isVisible()).toBe(true);
    await admin.getByRole("button", { name: "Continue" }).click();
    await admin.waitForURL(/\/permits$/, { timeout: 15_000 });
    await keep(admin, ADMIN);

    await eventually(() => admin.getByRole("heading", { name: GETTING_STARTED.title }).isVisible()).toBe(
      true,
    );
    expect(await admin.getByText(GETTING_STARTED.introPlatform).isVisible()).toBe(true);
    await expectSteps(admin, [false, false, false]);
    await expectNoListControls(admin);
    // Each step links to its screen.
    const link = (name: string) => admin.getByRole("link", { name, exact: true });
    expect(await link(STEPS.company.text).getAttribute("href")).toBe("/admin/companies/new");
    expect(await link(STEPS.clientAndProject.text).getAttribute("href")).toBe("/admin/projects/new");
    expect(await link("Add permits").getAttribute("href")).toBe("/permits/new");
    expect(await link("import a CSV").getAttribute("href")).toBe("/admin/import-permits");
    await shot(admin, "first-run-permits-1280");
    const phone = await as(ADMIN, PHONE);
    await eventually(() => steps(phone).count()).toBe(3);
    await expectNoListControls(phone);
    await shot(phone, "first-run-permits-390");
    // The dark theme passes the same contrast check.
    await admin.getByRole("button", { name: "Toggle light/dark theme" }).click();
    await shot(admin, "first-run-permits-dark-1280");
    await admin.getByRole("button", { name: "Toggle light/dark theme" }).click();
  });

  it("'+ New Permit' leads to creating a company instead of a form with an empty Company list", async () => {
    const admin = await as(ADMIN);
    await admin.getByRole("link", { name: "+ New Permit" }).click();
    await admin.waitForURL(/\/permits\/new$/);
    await eventually(() => admin.getByText(GETTING_STARTED.noCompany).isVisible()).toBe(true);
    expect(await admin.getByLabel("Permit Number").count()).toBe(0);
    await shot(admin, "first-run-new-permit-1280");
    await admin.getByRole("link", { name: "New Company" }).click();
    await admin.waitForURL(/\/admin\/companies\/new$/);
  });

  it("the Bonds page and the Admin Dashboard start with the steps too; no amount without a currency", async () => {
    const admin = await as(ADMIN, LAPTOP, "/bonds");
    await eventually(() => steps(admin).count()).toBe(3);
    expect(await admin.getByRole("region", { name: "Summary" }).count()).toBe(0);
    expect(await admin.getByLabel(/^Search/).count()).toBe(0);
    expect(await admin.getByText(/\b0\.00\b/).count()).toBe(0);
    await shot(admin, "first-run-bonds-1280");
    const phone = await as(ADMIN, PHONE, "/bonds");
    await eventually(() => steps(phone).count()).toBe(3);
    await shot(phone, "first-run-bonds-390");

    await admin.goto(at("/admin"));
    await eventually(() => steps(admin).count()).toBe(3);
    expect(await admin.getByRole("navigation", { name: "Administration" }).isVisible()).toBe(true);
    await shot(admin, "first-run-admin-1280");
  });

  it("ticks step 1 once a company is made from its link", async () => {
    const admin = await as(ADMIN);
    await admin.getByRole("link", { name: STEPS.company.text, exact: true }).click();
    await admin.waitForURL(/\/admin\/companies\/new$/);
    await admin.getByLabel("Name", { exact: true }).fill(COMPANY);
    await admin.getByRole("button", { name: "Save Company" }).click();
    await admin.waitForURL(/\/admin\/companies(\/[0-9a-f-]+\/edit)?$/, { timeout: 15_000 });
    await admin.goto(at("/permits"));
    await eventually(async () => (await readSteps(admin))[0]!.done).toBe(true);
    await expectSteps(admin, [true, false, false]);
  });
});

describe("an empty company", () => {
  let companyId: string;
  const people = {
    admin: "ivy.admin@juniper.example",
    user: "owen.user@juniper.example",
    client: "cora.client@juniper.example",
  };

  it("its admin sees step 1 ticked and steps 2 and 3 to do, each a link", async () => {
    const sa = await as(ADMIN);
    const companies = (await (await sa.request.get(at("/api/companies"))).json()) as {
      companies: { id: string; name: string }[];
    };
    companyId = companies.companies.find((c) => c.name === COMPANY)!.id;
    const make = (email: string, role: string) =>
      post(sa, "/api/users", {
        email,
        firstName: email.split(".")[0],
        lastName: "Juniper",
        role,
        companyId,
        password: NEW_PASSWORD,
        mustResetPassword: false,
      });
    await make(people.admin, "company-admin");
    await make(people.user, "company-user");
    await make(people.client, "client-user");

    const companyAdmin = await signInAt(people.admin, NEW_PASSWORD);
    await eventually(() => companyAdmin.getByText(GETTING_STARTED.introCompany).isVisible()).toBe(true);
    await expectSteps(companyAdmin, [true, false, false]);
    expect(await companyAdmin.getByRole("link", { name: STEPS.company.text }).count()).toBe(0);
    await expectNoListControls(companyAdmin);
    await shot(companyAdmin, "empty-company-permits-1280");
    const phone = await as(people.admin, PHONE);
    await eventually(() => steps(phone).count()).toBe(3);
    await shot(phone, "empty-company-permits-390");
  });

  it("a company-user sees the same steps, and that a company admin adds the client and project", async () => {
    const user = await signInAt(people.user, NEW_PASSWORD);
    await expectSteps(user, [true, false, false]);
    expect(await user.getByText(GETTING_STARTED.askAdmin).isVisible()).toBe(true);
    expect(await user.getByRole("link", { name: STEPS.clientAndProject.text }).count()).toBe(0);
    expect(await user.getByRole("link", { name: "import a CSV" }).count()).toBe(0);
    expect(await user.getByRole("link", { name: "Add permits" }).count()).toBe(1);
    await shot(user, "empty-company-user-permits-1280");
  });

  it("a client-user never sees the steps: 'No permits yet.' and 'No bonds yet.'", async () => {
    const client = await signInAt(people.client, NEW_PASSWORD);
    await eventually(() => client.getByText(EMPTY_STATES.permits.none).isVisible()).toBe(true);
    expect(await client.getByRole("heading", { name: GETTING_STARTED.title }).count()).toBe(0);
    await expectNoListControls(client);
    await shot(client, "empty-client-user-permits-1280");
    await client.goto(at("/bonds"));
    await eventually(() => client.getByText(EMPTY_STATES.bonds.none).isVisible()).toBe(true);
    expect(await client.getByRole("heading", { name: GETTING_STARTED.title }).count()).toBe(0);
  });

  it("ticks step 2 with a project (its client named in the form), then step 3 with a permit: rows, tiles and filters appear", async () => {
    const companyAdmin = await as(people.admin);
    await companyAdmin.getByRole("link", { name: STEPS.clientAndProject.text, exact: true }).click();
    await companyAdmin.waitForURL(/\/admin\/projects\/new$/);
    await companyAdmin.getByLabel("Project Number").fill("JCW-001");
    await companyAdmin.getByLabel("Project Name").fill("Ridge Road Bridge");
    await companyAdmin.getByLabel("Client").fill("County of Juniper");
    await companyAdmin.getByRole("button", { name: "Save Project" }).click();
    await companyAdmin.waitForURL(/\/admin\/projects$/, { timeout: 15_000 });
    await companyAdmin.goto(at("/permits"));
    await eventually(async () => (await readSteps(companyAdmin))[1]!.done).toBe(true);
    await expectSteps(companyAdmin, [true, true, false]);

    // The Bonds page of a company without bonds: "No bonds yet.", amounts nowhere without a currency.
    await companyAdmin.goto(at("/bonds"));
    await eventually(() => steps(companyAdmin).count()).toBe(3);

    const projects = (await (await companyAdmin.request.get(at("/api/projects"))).json()) as {
      projects: { id: string }[];
    };
    await post(companyAdmin, "/api/permits", {
      permit_number: "JCW-BLD-1",
      permit_name: "Bridge Deck Building Permit",
      record_type: "permit",
      agency: "Juniper County",
      expiration_date: "2031-06-30",
      project_id: projects.projects[0]!.id,
    });
    await companyAdmin.goto(at("/permits"));
    await eventually(() => companyAdmin.getByText("Bridge Deck Building Permit").isVisible()).toBe(true);
    expect(await companyAdmin.getByRole("heading", { name: GETTING_STARTED.title }).count()).toBe(0);
    expect(await companyAdmin.getByLabel("Search permits").isVisible()).toBe(true);
    expect(await companyAdmin.getByRole("group", { name: /^Summary/ }).isVisible()).toBe(true);

    await companyAdmin.goto(at("/bonds"));
    await eventually(() => companyAdmin.getByText(EMPTY_STATES.bonds.none).isVisible()).toBe(true);
    expect(await companyAdmin.getByRole("heading", { name: GETTING_STARTED.title }).count()).toBe(0);
    await shot(companyAdmin, "no-bonds-yet-1280");

    await companyAdmin.goto(at("/admin"));
    await eventually(() => companyAdmin.getByRole("navigation", { name: "Administration" }).isVisible()).toBe(
      true,
    );
    expect(await companyAdmin.getByRole("heading", { name: GETTING_STARTED.title }).count()).toBe(0);
  });

  it("filters that leave nothing say so, and 'Clear Filters' brings the rows back", async () => {
    for (const [page, size] of [
      [await as(people.admin), "1280"],
      [await as(people.admin, PHONE), "390"],
    ] as const) {
      await page.goto(at("/permits?q=no-such-permit"));
      await eventually(() => page.getByText(EMPTY_STATES.permits.filtered).isVisible()).toBe(true);
      expect(await page.getByText(EMPTY_STATES.permits.none).count()).toBe(0);
      await shot(page, `filters-exclude-all-${size}`);
      const list = page.getByRole("region", { name: "Permits list" });
      await list.getByRole("button", { name: CLEAR_FILTERS }).click();
      await page.waitForURL((url) => !url.searchParams.has("q"));
      await eventually(() => page.getByText("Bridge Deck Building Permit").first().isVisible()).toBe(true);
    }
    const companyAdmin = await as(people.admin, LAPTOP, "/bonds?q=no-such-bond");
    await eventually(() => companyAdmin.getByText(EMPTY_STATES.bonds.none).isVisible()).toBe(true);
  });
});
