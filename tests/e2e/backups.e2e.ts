import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BASE_URL, DEMO, eventually, PHONE, shot, signedIn, useBrowser } from "./support.ts";

/*
 * Issue 26: a backup taken by hand (`npm run backup`, against the server under test: on PGlite the
 * command asks the running server with the control token; on PostgreSQL it runs pg_dump itself)
 * shows on the super-admin's Admin Dashboard with its time, size and result; a company-admin's
 * dashboard has no such card.
 */

const b = useBrowser();
const out = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-e2e-backup-"));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

function backupByHand(): string {
  const run = spawnSync(
    process.execPath,
    [path.resolve("node_modules/tsx/dist/cli.mjs"), "server/jobs/backup-cli.ts", "--out", out],
    {
      encoding: "utf8",
      env: {
        ...process.env,
        DATA_DIR: process.env.E2E_DATA_DIR ?? "",
        DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
      },
    },
  );
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  return run.stdout;
}

describe("Admin Dashboard: Backups", () => {
  it("shows the last backup's time, size and result to the super-admin", async () => {
    const printed = backupByHand();
    expect(printed).toMatch(
      /Backup written to .*permitrack-backup-\d{8}T\d{6}Z: \d+ tables, \d+ rows, \d+ files/,
    );
    const folder = fs.readdirSync(out).find((n) => n.startsWith("permitrack-backup-"))!;

    const page = await signedIn(b, DEMO.superAdmin);
    await page.goto(`${BASE_URL}/admin`);
    const card = page.getByRole("region", { name: "Backups" });
    await eventually(() => card.getByText("Succeeded", { exact: true }).isVisible()).toBe(true);
    expect(await card.getByText("Last backup", { exact: true }).isVisible()).toBe(true);
    expect(await card.getByText(folder).isVisible()).toBe(true);
    expect(await card.getByText(/^\d+(\.\d)? (B|KB|MB)$/).isVisible()).toBe(true);
    await shot(page, "backups-admin-dashboard");

    const phone = await signedIn(b, DEMO.superAdmin, PHONE);
    await phone.goto(`${BASE_URL}/admin`);
    await eventually(() =>
      phone.getByRole("region", { name: "Backups" }).getByText("Succeeded").isVisible(),
    ).toBe(true);
    await shot(phone, "backups-admin-dashboard-phone");
  });

  it("is not on a company-admin's dashboard", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.goto(`${BASE_URL}/admin`);
    await eventually(() => page.getByText("Manage Users").isVisible()).toBe(true);
    expect(await page.getByRole("region", { name: "Backups" }).count()).toBe(0);
  });
});
