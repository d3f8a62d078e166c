/**
 * Item 5, two servers over one database: a session made on one works on the other. That the e2e
 * suite passes against either (its spec files split across the two, run side by side) is the test
 * command's e2e run, tests/e2e/across-servers.ts (decision 0021), which seeds with seedDemo() too.
 */
import { spawnSync } from "node:child_process";
import { call, signIn } from "./lib/http.ts";
import type { Report } from "./lib/report.ts";
import type { AppServer } from "./lib/server.ts";
import { root } from "./lib/util.ts";

export const DEMO_PASSWORD = "demo-password-resilience";
// As the e2e runner: the demo super-admin signs in with two-factor; the specs compute its codes from
// this key (base32, as a person types it into an authenticator app).
export const DEMO_TOTP_SECRET = "OJSXG2LMNFSW4Y3FFVSGK3LPFV2G65DQFVZWKY3SMV2C2MBRGIZTINJW";
export const FIRST_ADMIN = "first.admin@permitrack.example";
export const DEMO = {
  companyAdmin: "dana.whitfield@summit-ridge.example",
  companyUser: "sam.baker@summit-ridge.example",
  otherCompanyAdmin: "maya.chen@bayline-civil.example",
};

/** Loads the demo data as `npm run seed:demo` does; returns the first super-admin's generated password. */
export function seedDemo(databaseUrl: string, dataDir: string, sessionSecret: string): string {
  const seed = spawnSync(process.execPath, ["--import", "tsx", "server/setup/seed-demo.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      ADMIN_EMAIL: FIRST_ADMIN,
      ADMIN_PASSWORD: "",
      DEMO_PASSWORD,
      DEMO_TOTP_SECRET,
      // Two-factor secrets are encrypted with it: the seed and the servers must share it.
      SESSION_SECRET: sessionSecret,
    },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (seed.status !== 0) throw new Error(`seed:demo failed:\n${seed.stdout}\n${seed.stderr}`);
  const generated = /password:\s+(\S+)/.exec(seed.stdout)?.[1];
  if (!generated) throw new Error(`no generated admin password in the seed output:\n${seed.stdout}`);
  return generated;
}

/** A session cookie from one server is a session on the other; signing out on one ends it on both. */
export async function sessionAcrossServers(report: Report, a: AppServer, b: AppServer) {
  report.begin("Two servers: one session, either server");
  const cookie = await signIn(a.url, DEMO.companyAdmin, DEMO_PASSWORD);
  const meOnB = await call<{ email?: string }>(b.url, "GET", "/api/me", { cookie });
  report.check(
    "a session made on server A is recognised by server B",
    meOnB.status === 200 && meOnB.body.email === DEMO.companyAdmin,
    `B answered ${meOnB.status} ${meOnB.body.email ?? ""}`,
  );
  const listOnB = await call<{ total?: number }>(b.url, "GET", "/api/permits?page=1", { cookie });
  const listOnA = await call<{ total?: number }>(a.url, "GET", "/api/permits?page=1", { cookie });
  report.check(
    "both servers show the same permits to that session",
    listOnA.status === 200 && listOnB.status === 200 && listOnA.body.total === listOnB.body.total,
    `A ${listOnA.status} total ${listOnA.body.total}, B ${listOnB.status} total ${listOnB.body.total}`,
  );
  // A write through B is read back through A.
  const comment = `written through B at ${Date.now()}`;
  const permitId = (
    await call<{ groups: { projects: { permits: { id: string }[] }[] }[] }>(
      a.url,
      "GET",
      "/api/permits?page=1&page_size=1",
      { cookie },
    )
  ).body.groups[0]?.projects[0]?.permits[0]?.id;
  const written = await call(b.url, "POST", `/api/permits/${permitId}/comments`, {
    cookie,
    json: { text: comment },
  });
  const readBack = await call<{ comments: { text: string }[] }>(
    a.url,
    "GET",
    `/api/permits/${permitId}/comments`,
    {
      cookie,
    },
  );
  report.check(
    "a comment written through B is read back through A",
    written.status === 201 &&
      readBack.status === 200 &&
      readBack.body.comments.some((c) => c.text === comment),
    `B ${written.status}, A ${readBack.status}`,
  );
  const out = await call(b.url, "POST", "/api/auth/sign-out", { cookie });
  const afterOnA = await call(a.url, "GET", "/api/me", { cookie });
  report.check(
    "signing out on B ends the session on A",
    out.status === 204 && afterOnA.status === 401,
    `sign-out ${out.status}, then A answered ${afterOnA.status}`,
  );
}
