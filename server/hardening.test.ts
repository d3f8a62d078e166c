import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { permitTemplates, sessions, users } from "./db/schema.ts";
import { useTestContext } from "./test-support/harness.ts";
import { multipart } from "./test-support/multipart.ts";
import { useWorld } from "./test-support/world.ts";

// Regression tests for what the security probe of issue 10 found, one block per class of defect.
const t = useTestContext();
const w = useWorld(t, { permits: true });

const permitBody = (over: Record<string, unknown> = {}) => ({
  permit_number: "BP-100",
  permit_name: "Building Permit",
  record_type: "permit",
  agency: "City of Denver",
  expiration_date: "2030-06-30",
  is_required: true,
  archived: false,
  ...over,
});

describe("the API's protections follow the matched route, not the raw URL", () => {
  const encodings = ["/%61pi/auth/sign-out", "/%61%70%69/auth/sign-out", "/api/auth/%73ign-out"];

  it.each(encodings)("refuses a cross-site write through %s (CSRF)", async (url) => {
    const res = await t.app.inject({
      method: "POST",
      url,
      headers: { origin: "https://evil.example", cookie: w.user.cookie },
    });
    expect([403, 404]).toContain(res.statusCode);
    if (res.statusCode === 403) expect(res.json().code).toBe("CSRF");
    // The session survived: the sign-out did not run.
    expect((await w.user.get("/api/me")).statusCode).toBe(200);
  });

  it("refuses a sign-in from an evil origin through an encoded path", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/%61pi/auth/sign-in",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
      payload: { email: "x@example.com", password: "whatever-123" },
    });
    expect([403, 404]).toContain(res.statusCode);
  });

  it("answers upper-case and duplicate-slash paths without reaching a route unprotected", async () => {
    for (const url of ["/API/auth/sign-out", "//api/auth/sign-out", "/api//auth/sign-out"]) {
      const res = await t.app.inject({ method: "POST", url, headers: { cookie: w.user.cookie } });
      expect(res.statusCode, url).not.toBe(204);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    expect((await w.user.get("/api/me")).statusCode).toBe(200);
  });
});

describe("text the database cannot store answers 400", () => {
  const bad = ["a\u0000b", "x\uD800y", "\uDFFFz"];

  it.each(bad)("refuses %j in a permit create and update, and stores nothing", async (text) => {
    const before = (await w.admin.get("/api/permits?page_size=100")).json().total;
    const created = await w.admin.post("/api/permits", permitBody({ permit_name: text }));
    expect(created.statusCode).toBe(400);
    expect(created.json().code).toBe("VALIDATION");
    expect(created.json().message).toMatch(/character/i);
    expect((await w.admin.get("/api/permits?page_size=100")).json().total).toBe(before);
    const updated = await w.admin.put(`/api/permits/${w.permitId}`, permitBody({ agency: text }));
    expect(updated.statusCode).toBe(400);
  });

  // A query string is bytes: %00 decodes to NUL; a lone surrogate cannot be percent-encoded at all.
  it.each(["a%00b", "%00"])("refuses ?q=%s in the list, summary and export", async (q) => {
    for (const url of [`/api/permits?q=${q}`, `/api/permits/summary?q=${q}`, `/api/permits/export?q=${q}`]) {
      const res = await w.admin.get(url);
      expect(res.statusCode, url).toBe(400);
    }
  });

  it("refuses NUL in a comment, a client, a template, a project and a user", async () => {
    const cases: [string, string, unknown][] = [
      ["POST", `/api/permits/${w.permitId}/comments`, { comment: "hi\u0000", is_internal: false }],
      ["POST", "/api/clients", { name: "Bad\u0000Client" }],
      ["POST", "/api/templates", { name: "T\u0000", status: "Required", active: true }],
      ["POST", "/api/projects", { name: "P\u0000" }],
      [
        "POST",
        "/api/users",
        {
          email: "n@example.com",
          firstName: "A\u0000",
          lastName: "B",
          role: "company-user",
          password: "long-enough-1",
        },
      ],
    ];
    for (const [method, url, payload] of cases) {
      const res = await w.admin.request({ method: method as "POST", url, payload: payload as object });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toMatch(/NUL characters/);
    }
  });

  it("refuses a NUL in an upload's file name", async () => {
    const res = await w.admin.request({
      method: "POST",
      url: `/api/permits/${w.permitId}/attachments`,
      ...multipart([
        { name: "file", filename: "a\u0000.pdf", contentType: "application/pdf", content: "%PDF-1" },
      ]),
    });
    expect(res.statusCode).toBe(400);
  });

  it("refuses a NUL inside a CSV cell with its line number", async () => {
    const csv = "permit_name,project\nGood,Alpha\nBad\u0000Name,Alpha\n";
    const res = await w.admin.request({
      method: "POST",
      url: "/api/imports/permits?dry_run=true",
      ...multipart([{ name: "file", filename: "p.csv", contentType: "text/csv", content: csv }]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/line 3/i);
  });
});

describe("malformed requests answer 4xx", () => {
  it.each(["null", "[]", "42", '"text"', "{"])(
    "refuses the JSON body %s on permit create and update",
    async (body) => {
      for (const [method, url] of [
        ["POST", "/api/permits"],
        ["PUT", `/api/permits/${w.permitId}`],
      ] as const) {
        const res = await w.admin.request({
          method,
          url,
          headers: { "content-type": "application/json" },
          payload: body,
        });
        expect(res.statusCode, `${method} ${body}`).toBe(400);
      }
    },
  );

  const uploads = () => [
    `/api/permits/${w.permitId}/attachments`,
    "/api/imports/permits?dry_run=true",
    `/api/companies/${w.companyId}/logo`,
  ];

  it("refuses multipart without a boundary", async () => {
    for (const url of uploads()) {
      const res = await w.superAdmin.request({
        method: "POST",
        url,
        headers: { "content-type": "multipart/form-data" },
        payload:
          '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nabc\r\n--x--\r\n',
      });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
  });

  it("refuses multipart cut off midway", async () => {
    for (const url of uploads()) {
      const full = multipart([
        { name: "file", filename: "a.png", contentType: "image/png", content: "x".repeat(5000) },
      ]);
      const res = await w.superAdmin.request({
        method: "POST",
        url,
        headers: full.headers,
        payload: full.payload.subarray(0, 2000),
      });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
  });
});

describe("uniqueness holds under concurrent writes", () => {
  it("six parallel creates of one template name leave one row and five 409s", async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        w.admin.post("/api/templates", { name: "Race Permit", status: "Required", active: true }),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409, 409, 409, 409].sort());
    const rows = await t.db.select().from(permitTemplates).where(eq(permitTemplates.name, "Race Permit"));
    expect(rows).toHaveLength(1);
  });

  it("six parallel creates of one client name leave one row", async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => w.admin.post("/api/clients", { name: "Race Client" })),
    );
    expect(results.filter((r) => r.statusCode < 300)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(5);
  });

  it("an e-mail taken in another company answers 409 without naming that company", async () => {
    const other = await t.make.user({ role: "company-user", companyId: w.otherCompanyId });
    const res = await w.admin.post("/api/users", {
      email: other.email,
      firstName: "Dup",
      lastName: "User",
      role: "company-user",
      companyId: w.companyId,
      password: "long-enough-1",
    });
    expect(res.statusCode).toBe(409);
    expect(res.body).not.toContain("Bayline");
    expect(res.body).not.toContain(w.otherCompanyId);
  });
});

describe("sessions", () => {
  it("ending impersonation starts a fresh session and kills the admin's old token", async () => {
    const admin = await t.make.user({ role: "super-admin" });
    const api = await t.signIn(admin);
    const oldToken = (await t.db.select().from(sessions).where(eq(sessions.userId, admin.id)))[0]!.token;
    const started = await api.post("/api/impersonation", { userId: w.userId });
    expect(started.statusCode, started.body).toBe(200);
    const asUser = started.cookies.map((c) => `${c.name}=${c.value}`);
    const cookie = mergeCookies(api.cookie, asUser);
    const stopped = await t.app.inject({
      method: "DELETE",
      url: "/api/impersonation",
      headers: { cookie, "x-requested-with": "permitrack" },
    });
    expect(stopped.statusCode).toBe(200);
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, admin.id));
    expect(rows.map((r) => r.token)).not.toContain(oldToken);
    expect(rows.filter((r) => !r.impersonatedBy)).toHaveLength(1);
    const after = mergeCookies(
      cookie,
      stopped.cookies.map((c) => `${c.name}=${c.value}`),
    );
    const me = await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie: after } });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(admin.email);
    expect(me.json().impersonator ?? null).toBeNull();
  });
});

describe("the calendar feed does not outlive account changes", () => {
  async function userWithFeed() {
    const user = await t.make.user({ role: "company-user", companyId: w.companyId });
    const api = await t.signIn(user);
    const url = (await api.post("/api/me/calendar-token")).json().url as string;
    const path = new URL(url).pathname;
    expect((await t.anonymous.get(path)).statusCode).toBe(200);
    return { user, api, path };
  }
  const edit = (user: { firstName: string; lastName: string }, over: Record<string, unknown>) => ({
    firstName: user.firstName,
    lastName: user.lastName,
    role: "company-user",
    companyId: w.companyId,
    ...over,
  });

  it("dies when an admin sets a new password", async () => {
    const { user, path } = await userWithFeed();
    const res = await w.admin.put(`/api/users/${user.id}`, edit(user, { password: "brand-new-pass-1" }));
    expect(res.statusCode).toBe(200);
    expect((await t.anonymous.get(path)).statusCode).toBe(404);
  });

  it("dies when the user's role changes", async () => {
    const { user, path } = await userWithFeed();
    const res = await w.admin.put(`/api/users/${user.id}`, edit(user, { role: "company-admin" }));
    expect(res.statusCode).toBe(200);
    expect((await t.anonymous.get(path)).statusCode).toBe(404);
  });

  it("dies when a super-admin moves the user to another company", async () => {
    const { user, path } = await userWithFeed();
    const res = await w.superAdmin.put(`/api/users/${user.id}`, edit(user, { companyId: w.otherCompanyId }));
    expect(res.statusCode).toBe(200);
    expect((await t.anonymous.get(path)).statusCode).toBe(404);
  });

  it("dies when the user sets a new password at a forced reset", async () => {
    const user = await t.make.user({ role: "company-user", companyId: w.companyId });
    const api = await t.signIn(user);
    const path = new URL((await api.post("/api/me/calendar-token")).json().url as string).pathname;
    await t.db.update(users).set({ mustResetPassword: true }).where(eq(users.id, user.id));
    const res = await api.post("/api/me/password", {
      newPassword: "another-pass-22",
      confirmPassword: "another-pass-22",
    });
    expect(res.statusCode).toBe(200);
    expect((await t.anonymous.get(path)).statusCode).toBe(404);
  });

  it("survives an edit that changes none of them", async () => {
    const { user, path } = await userWithFeed();
    const res = await w.admin.put(`/api/users/${user.id}`, edit(user, { firstName: "Renamed" }));
    expect(res.statusCode).toBe(200);
    expect((await t.anonymous.get(path)).statusCode).toBe(200);
  });
});

function mergeCookies(base: string, extra: string[]): string {
  const map = new Map(
    base
      .split("; ")
      .filter(Boolean)
      .map((c) => [c.split("=")[0]!, c] as const),
  );
  for (const c of extra) map.set(c.split("=")[0]!, c);
  return [...map.values()].join("; ");
}
