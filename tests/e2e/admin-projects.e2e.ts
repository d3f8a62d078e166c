import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  BASE_URL,
  DEMO,
  DEMO_PASSWORD,
  followNavLink,
  PHONE,
  screenshot,
  signIn,
  useBrowser,
} from "./support.ts";

const b = useBrowser();

// Names of their own, so this file does not trip over what other specs create in the shared server.
const CLIENT = "Mile High Hospital";
const TEMPLATE = "Elevator Permit";
const PROJECT = "Mile High Tower";
const PROJECT_NUMBER = "SR-2026-900";

async function signInAsAdmin(page: Page) {
  await signIn(page, DEMO.companyAdmin, DEMO_PASSWORD);
  await page.waitForURL(/\/permits$/);
}

const nav = (page: Page, label: string) => followNavLink(page, label);

// A cold screen (its chunk, then its data) can take a few seconds on a busy machine.
const poll = <T>(read: () => Promise<T>, timeout = 10_000) => expect.poll(read, { timeout });

// Messages queue up one at a time, each shown for five seconds.
const snackbar = (page: Page, text: string) =>
  poll(() => page.getByText(text, { exact: true }).isVisible(), 15_000).toBe(true);

const noHorizontalScroll = async (page: Page) =>
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);

describe("a company-admin sets up a project", () => {
  it("creates a client in the drawer, with the spec's checks", async () => {
    const page = await b.newPage();
    await signInAsAdmin(page);
    await nav(page, "Clients");
    await page.waitForURL(/\/admin\/clients$/);
    await poll(() => page.getByRole("heading", { name: "Clients", level: 1 }).isVisible()).toBe(true);
    const table = page.getByRole("table", { name: "Clients" });
    await poll(() => table.getByRole("row").count()).toBeGreaterThan(1);
    expect(await table.getByRole("columnheader").allTextContents()).toEqual([
      "Client Name",
      "Company",
      "Created At",
      "Compliance",
      "Actions",
    ]);
    await poll(() => table.getByRole("row", { name: /City of Aurora/ }).textContent()).toContain(
      "Summit Ridge Construction",
    );
    await screenshot(page, "admin-clients");

    await page.getByRole("button", { name: "New Client" }).click();
    await page.waitForURL(/\/admin\/clients\/new$/);
    const drawer = page.getByRole("dialog", { name: "New Client" });
    await poll(() => drawer.isVisible()).toBe(true);
    expect((await drawer.boundingBox())!.width).toBe(400);
    // a company-admin's company is fixed
    expect(await drawer.getByLabel("Company").inputValue()).toBe("Summit Ridge Construction");
    expect(await drawer.getByLabel("Company").isDisabled()).toBe(true);

    await drawer.getByLabel("Client Name").fill("   ");
    await drawer.getByRole("button", { name: "Save Client" }).click();
    await poll(() => drawer.getByText("Client Name is required").isVisible()).toBe(true);

    // names are unique within the company, whatever the case
    await drawer.getByLabel("Client Name").fill("city of AURORA");
    await drawer.getByRole("button", { name: "Save Client" }).click();
    await poll(() =>
      drawer.getByText('A client named "city of AURORA" already exists in this company.').isVisible(),
    ).toBe(true);
    await screenshot(page, "admin-client-drawer-error");

    await drawer.getByLabel("Client Name").fill(`  ${CLIENT} `);
    await drawer.getByRole("button", { name: "Save Client" }).click();
    await page.waitForURL(/\/admin\/clients$/);
    await snackbar(page, "Client saved.");
    const row = table.getByRole("row", { name: new RegExp(CLIENT) });
    // One date format (issue 14): the browser's medium style, e.g. "Nov 24, 2026".
    await poll(() => row.textContent()).toContain(
      new Intl.DateTimeFormat("en-US", { dateStyle: "medium" }).format(new Date()),
    );
  });

  it("renames a client in the drawer, deletes an unused one and explains why a busy one cannot go", async () => {
    const page = await b.newPage();
    await signInAsAdmin(page);
    await page.goto(`${BASE_URL}/admin/clients/new`);
    const create = page.getByRole("dialog", { name: "New Client" });
    await create.getByLabel("Client Name").fill("Short Lived Client");
    await create.getByRole("button", { name: "Save Client" }).click();
    await page.waitForURL(/\/admin\/clients$/);

    const table = page.getByRole("table", { name: "Clients" });
    await table.getByRole("link", { name: "Edit Short Lived Client" }).click();
    await page.waitForURL(/\/admin\/clients\/[0-9a-f-]+\/edit$/);
    const edit = page.getByRole("dialog", { name: "Edit Client" });
    await poll(() => edit.getByLabel("Client Name").inputValue()).toBe("Short Lived Client");
    await edit.getByLabel("Client Name").fill("Briefly Renamed Client");
    await screenshot(page, "admin-client-drawer-edit");
    await edit.getByRole("button", { name: "Save Client" }).click();
    await page.waitForURL(/\/admin\/clients$/);
    await poll(() => table.getByRole("row", { name: /Briefly Renamed Client/ }).isVisible()).toBe(true);

    await table.getByRole("button", { name: "Delete Briefly Renamed Client" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete client" });
    await confirm.getByRole("button", { name: "Delete" }).click();
    await snackbar(page, "Client deleted.");
    await poll(() => table.getByRole("row", { name: /Briefly Renamed Client/ }).count()).toBe(0);

    await table.getByRole("button", { name: "Delete City of Aurora" }).click();
    await poll(() => confirm.textContent()).toMatch(/It has \d+ projects, so it cannot be deleted/);
    expect(await confirm.getByRole("button", { name: "Delete" }).isDisabled()).toBe(true);
    await confirm.getByRole("button", { name: "Cancel" }).click();
  });

  it("adds a permit template, switches and edits it inline", async () => {
    const page = await b.newPage();
    await signInAsAdmin(page);
    await nav(page, "Permit Templates");
    await page.waitForURL(/\/admin\/permit-templates$/);
    await poll(() => page.getByRole("heading", { name: "Permit Templates" }).isVisible()).toBe(true);
    const table = page.getByRole("table", { name: "Permit templates" });
    await poll(() => table.getByRole("row", { name: /Building Permit/ }).isVisible()).toBe(true);

    // an empty name is refused with a message
    await page.getByRole("button", { name: "Add" }).click();
    await poll(() => page.getByText("Template name is required").isVisible()).toBe(true);

    await page.getByLabel("New Template Name").fill(`  ${TEMPLATE} `);
    await page.getByLabel("Agency", { exact: true }).fill(" State Elevator Board ");
    await page.getByRole("switch", { name: "Required", exact: true }).click();
    expect(await page.getByRole("switch", { name: "Required", exact: true }).isChecked()).toBe(false);
    await page.getByRole("button", { name: "Add" }).click();
    await snackbar(page, "Template added.");
    const row = table.getByRole("row", { name: new RegExp(TEMPLATE) });
    await poll(() => row.textContent()).toContain("State Elevator Board");
    expect(await row.textContent()).toContain("N/A");
    // the add row is back to empty and Required
    expect(await page.getByLabel("New Template Name").inputValue()).toBe("");
    expect(await page.getByLabel("Agency", { exact: true }).inputValue()).toBe("");
    expect(await page.getByRole("switch", { name: "Required", exact: true }).isChecked()).toBe(true);

    // a duplicate is refused, and said so
    await page.getByLabel("New Template Name").fill(TEMPLATE.toUpperCase());
    await page.getByRole("button", { name: "Add" }).click();
    await poll(() =>
      page.getByText(`A template named "${TEMPLATE.toUpperCase()}" already exists.`).isVisible(),
    ).toBe(true);

    // the row's status switch saves at once
    await row.getByRole("switch", { name: `Required: ${TEMPLATE}` }).click();
    await snackbar(page, "Template saved.");
    await poll(() => row.textContent()).toContain("Required");

    // inline edit: the switches are off while editing; Cancel keeps the old values
    await row.getByRole("button", { name: `Edit ${TEMPLATE}` }).click();
    const editing = table.getByRole("row").filter({ has: page.getByRole("button", { name: "Save" }) });
    expect(await editing.getByRole("switch", { name: `Required: ${TEMPLATE}` }).isDisabled()).toBe(true);
    await editing.getByLabel("Agency").fill("Colorado Elevator Board");
    await screenshot(page, "admin-templates-edit");
    await editing.getByRole("button", { name: "Save" }).click();
    await poll(() => row.textContent()).toContain("Colorado Elevator Board");
    await screenshot(page, "admin-templates");
  });

  it("creates a project whose template permits appear, changes its status in the table and opens its dashboard", async () => {
    const page = await b.newPage();
    await signInAsAdmin(page);
    await nav(page, "Projects");
    await page.waitForURL(/\/admin\/projects$/);
    const table = page.getByRole("table", { name: "Projects" });
    await poll(() => table.getByRole("row").count()).toBeGreaterThan(1);

    await page.getByRole("button", { name: "Create New Project" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Project" });
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole("combobox", { name: "Status" }).textContent()).toBe("Not Started");
    await dialog.getByRole("button", { name: "Create Project" }).click();
    await poll(() => dialog.getByText("Project Name is required").isVisible()).toBe(true);
    await dialog.getByLabel("Project Name").fill(PROJECT);
    await dialog.getByLabel("Project Number").fill(PROJECT_NUMBER);
    await dialog.getByLabel("Client").fill("mile high");
    await page.getByRole("option", { name: CLIENT }).click();
    await screenshot(page, "admin-project-create-dialog");
    await dialog.getByRole("button", { name: "Create Project" }).click();
    // Building, Grading, Stormwater, Fire Sprinkler (N/A) and the template added above
    await snackbar(page, "Project created with 5 permits from the templates.");
    const row = table.getByRole("row", { name: new RegExp(PROJECT) });
    await poll(() => row.textContent()).toContain(CLIENT);
    expect(await row.getByRole("cell").nth(4).textContent()).toBe("5");

    // the status is saved as soon as it is picked, and survives a reload
    await row.getByRole("combobox", { name: `Status of ${PROJECT}` }).click();
    await page.getByRole("option", { name: "Under Construction" }).click();
    await snackbar(page, "Project status saved.");
    await page.reload();
    await poll(() =>
      table
        .getByRole("row", { name: new RegExp(PROJECT) })
        .getByRole("combobox")
        .textContent(),
    ).toBe("Under Construction");

    // sorting is done by the server; the header toggles the direction
    await table.getByRole("button", { name: "Project Number" }).click();
    await page.waitForURL(/sort=project_number&dir=asc/);
    await poll(() => table.getByRole("row").nth(1).textContent()).toContain(PROJECT_NUMBER); // SR- before SU-
    await table.getByRole("button", { name: "Project Number" }).click();
    await page.waitForURL(/sort=project_number&dir=desc/);
    await poll(() => table.getByRole("row").last().textContent()).toContain(PROJECT_NUMBER);
    await screenshot(page, "admin-projects");

    await table.getByRole("link", { name: PROJECT, exact: true }).click();
    await page.waitForURL(/\/projects\/[0-9a-f-]+\/dashboard$/);
    await poll(() => page.getByRole("heading", { name: PROJECT, level: 1 }).isVisible()).toBe(true);
    await poll(() => page.getByRole("heading", { name: "Analytics Dashboard" }).isVisible()).toBe(true);
    await poll(() => page.getByRole("img", { name: /^Permits by Status: In Progress 4/ }).isVisible()).toBe(
      true,
    );
    await poll(() => page.getByRole("combobox", { name: "Status" }).textContent()).toBe("Under Construction");

    const permits = page.getByRole("table", { name: "Project permits" });
    expect(await permits.getByRole("columnheader").allTextContents()).toEqual([
      "Permit Name",
      "Agency",
      "Application Date",
      "Expiration Date",
      "Status",
      "Details",
    ]);
    const names = await permits.getByRole("row").allTextContents();
    expect(names).toHaveLength(6);
    expect(names.some((n) => n.includes(TEMPLATE) && n.includes(`${PROJECT_NUMBER}-AUTO-`))).toBe(true);
    // N/A last, empty dates as a dash
    expect(names.at(-1)).toContain("Fire Sprinkler Permit");
    expect(names.at(-1)).toContain("N/A");
    expect(names[1]).toContain("—");
    const projectId = /projects\/([0-9a-f-]+)\/dashboard/.exec(page.url())![1]!;
    expect(await page.getByRole("link", { name: "+ New Permit" }).getAttribute("href")).toBe(
      `/projects/${projectId}/permits/new`,
    );
    expect(await page.getByRole("link", { name: "← Back to Permits" }).getAttribute("href")).toBe("/permits");
    const detail = await permits.getByRole("link", { name: `Details of ${TEMPLATE}` }).getAttribute("href");
    expect(detail).toMatch(/^\/permits\/[0-9a-f-]+$/);

    // the dashboard's status dropdown saves at once too
    await page.getByRole("combobox", { name: "Status" }).click();
    await page.getByRole("option", { name: "On Hold" }).click();
    await snackbar(page, "Project status saved.");
    await screenshot(page, "project-dashboard");

    const phone = await b.newPage({ viewport: PHONE });
    await signIn(phone, DEMO.companyAdmin, DEMO_PASSWORD);
    await phone.waitForURL(/\/permits$/);
    await phone.goto(`${BASE_URL}/projects/${projectId}/dashboard`);
    await poll(() => phone.getByRole("heading", { name: "Analytics Dashboard" }).isVisible()).toBe(true);
    await poll(() => phone.getByRole("img", { name: /^Permits by Status/ }).isVisible()).toBe(true);
    await noHorizontalScroll(phone);
    await screenshot(phone, "project-dashboard-phone");
    await phone.goto(`${BASE_URL}/admin/projects`);
    // On a phone the projects are cards (issue 14), a list named like the table.
    await poll(() =>
      phone.getByRole("list", { name: "Projects" }).getByRole("listitem").count(),
    ).toBeGreaterThan(0);
    await noHorizontalScroll(phone);
    await screenshot(phone, "admin-projects-phone");
  });

  it("edits a project in the form page and deletes it with its permits", async () => {
    const page = await b.newPage();
    await signInAsAdmin(page);
    await page.goto(`${BASE_URL}/admin/projects?sort=name`);
    const table = page.getByRole("table", { name: "Projects" });
    await table.getByRole("link", { name: `Edit ${PROJECT}` }).click();
    await page.waitForURL(/\/admin\/projects\/[0-9a-f-]+\/edit$/);
    await poll(() => page.getByRole("heading", { name: "Edit Project" }).isVisible()).toBe(true);
    await poll(() => page.getByLabel("Project Name").inputValue()).toBe(PROJECT);
    expect(await page.getByLabel("Project Number").inputValue()).toBe(PROJECT_NUMBER);
    expect(await page.getByLabel("Client").inputValue()).toBe(CLIENT);

    await page.getByLabel("Client").fill("");
    await page.getByRole("button", { name: "Save Project" }).click();
    await poll(() => page.getByText("Client is required").isVisible()).toBe(true);
    await page.getByLabel("Client").fill("Aurora Health Partners");
    await poll(() =>
      page.getByText('"Aurora Health Partners" is a new client: it will be created.').isVisible(),
    ).toBe(true);
    await page.getByLabel("Project Name").fill(`${PROJECT} II`);
    await screenshot(page, "admin-project-form");
    await page.getByRole("button", { name: "Save Project" }).click();
    await page.waitForURL(/\/admin\/projects$/);
    await snackbar(page, "Project saved.");
    const row = table.getByRole("row", { name: new RegExp(`${PROJECT} II`) });
    await poll(() => row.textContent()).toContain("Aurora Health Partners");

    await row.getByRole("button", { name: `Delete ${PROJECT} II` }).click();
    const confirm = page.getByRole("dialog", { name: `Delete ${PROJECT} II` });
    await poll(() => confirm.getByText("Are you sure you want to delete this project?").isVisible()).toBe(
      true,
    );
    expect(await confirm.textContent()).toContain("Its 5 permits will be deleted with it");
    await screenshot(page, "admin-project-delete");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await snackbar(page, "Project deleted.");
    await poll(() => table.getByRole("row", { name: new RegExp(`${PROJECT} II`) }).count()).toBe(0);
  });

  it("opens the add form at /admin/projects/new", async () => {
    const page = await b.newPage();
    await signInAsAdmin(page);
    await page.goto(`${BASE_URL}/admin/projects/new`);
    await poll(() => page.getByRole("heading", { name: "Add New Project" }).isVisible()).toBe(true);
    await page.getByLabel("Project Number").fill("SR-2026-901");
    await page.getByLabel("Project Name").fill("Form Made Project");
    await page.getByLabel("Client").fill(CLIENT);
    await page.getByRole("button", { name: "Save Project" }).click();
    await page.waitForURL(/\/admin\/projects$/);
    await poll(() =>
      page
        .getByRole("table", { name: "Projects" })
        .getByRole("row", { name: /Form Made Project/ })
        .textContent(),
    ).toContain(CLIENT);
  });
});

describe("other roles", () => {
  it("shows a company-user 'Access denied' on the admin screens and a read-only project dashboard", async () => {
    const page = await b.newPage();
    await signIn(page, DEMO.companyUser, DEMO_PASSWORD);
    await page.waitForURL(/\/permits$/);
    for (const path of ["/admin/projects", "/admin/clients"]) {
      await page.goto(`${BASE_URL}${path}`);
      await poll(() => page.getByText("Access denied.").isVisible()).toBe(true);
    }
    await page.goto(`${BASE_URL}/admin/permit-templates`);
    await poll(() => page.getByText("Access denied.", { exact: true }).isVisible()).toBe(true);
    await expect(page.getByRole("link", { name: "Back to home" }).isVisible()).resolves.toBe(true);

    const projects = await page.evaluate(
      async () => (await (await fetch("/api/projects")).json()) as { projects: { id: string }[] },
    );
    await page.goto(`${BASE_URL}/projects/${projects.projects[0]!.id}/dashboard`);
    await poll(() => page.getByRole("heading", { name: "Project Information" }).isVisible()).toBe(true);
    expect(await page.getByRole("combobox", { name: "Status" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "+ New Permit" }).isVisible()).toBe(true);
    await poll(() => page.getByRole("img", { name: /^Permits by Status/ }).isVisible()).toBe(true);
    await screenshot(page, "project-dashboard-company-user");
  });

  it("answers another company's project with 'Project not found.'", async () => {
    const page = await b.newPage();
    await signIn(page, DEMO.otherCompanyAdmin, DEMO_PASSWORD);
    await page.waitForURL(/\/permits$/);
    const other = await b.newPage();
    await signIn(other, DEMO.companyAdmin, DEMO_PASSWORD);
    await other.waitForURL(/\/permits$/);
    const projects = await other.evaluate(
      async () => (await (await fetch("/api/projects")).json()) as { projects: { id: string }[] },
    );
    await page.goto(`${BASE_URL}/projects/${projects.projects[0]!.id}/dashboard`);
    await poll(() => page.getByText("Project not found.").isVisible()).toBe(true);
  });

  it("lets a super-admin pick the company on Permit Templates", async () => {
    const page = await b.newPage();
    await signIn(page, DEMO.superAdmin, DEMO_PASSWORD);
    await page.waitForURL(/\/permits$/);
    await page.goto(`${BASE_URL}/admin/permit-templates`);
    await poll(() => page.getByText("Select Company").isVisible()).toBe(true);
    await page.getByRole("combobox", { name: "Company" }).click();
    await page.getByRole("option", { name: "Bayline Civil Engineering" }).click();
    await poll(() =>
      page
        .getByRole("table", { name: "Permit templates" })
        .getByRole("row", { name: /Building Permit/ })
        .isVisible(),
    ).toBe(true);
    await screenshot(page, "admin-templates-super-admin");
  });
});
