import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildApp } from "./app.ts";
import { useTestContext } from "./test-support/harness.ts";

const t = useTestContext();

describe("server basics", () => {
  it("answers /healthz and /readyz", async () => {
    expect((await t.anonymous.get("/healthz")).json()).toEqual({ status: "ok" });
    expect((await t.anonymous.get("/readyz")).json()).toEqual({ status: "ready" });
  });

  it("sends security headers with a strict Content-Security-Policy", async () => {
    const res = await t.anonymous.get("/healthz");
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toMatch(/script-src 'self'( 'nonce-[a-f0-9]+')?;/);
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("gives the web app's page a fresh nonce in its policy and in the page, and API answers none", async () => {
    const webDir = fs.mkdtempSync(path.join(t.dataDir, "web-"));
    fs.writeFileSync(
      path.join(webDir, "index.html"),
      '<meta name="csp-nonce" content="__CSP_NONCE__" /><style nonce="__CSP_NONCE__"></style>',
    );
    const app = await buildApp({ config: t.app.ctx.config, database: t.database, webDir });
    try {
      const nonces = [];
      for (const url of ["/permits", "/login"]) {
        const res = await app.inject({ method: "GET", url });
        expect(res.statusCode).toBe(200);
        const nonce = /script-src 'self' 'nonce-([a-f0-9]{32})';/.exec(
          String(res.headers["content-security-policy"]),
        )?.[1];
        expect(nonce).toBeDefined();
        expect(String(res.headers["content-security-policy"])).toContain(`style-src 'self' 'nonce-${nonce}'`);
        expect(res.body).toBe(`<meta name="csp-nonce" content="${nonce}" /><style nonce="${nonce}"></style>`);
        expect(res.headers["x-content-type-options"]).toBe("nosniff");
        nonces.push(nonce);
      }
      expect(nonces[0]).not.toBe(nonces[1]);
      const api = await app.inject({ method: "GET", url: "/healthz" });
      expect(String(api.headers["content-security-policy"])).not.toContain("nonce-");
    } finally {
      await app.close();
    }
  });

  it("sends the build's Brotli or gzip copy of an asset as the browser accepts, the file itself otherwise", async () => {
    const zlib = await import("node:zlib");
    const webDir = fs.mkdtempSync(path.join(t.dataDir, "web-"));
    fs.writeFileSync(path.join(webDir, "index.html"), "<p>app</p>");
    fs.mkdirSync(path.join(webDir, "assets"));
    const js = Buffer.from(`export const words = ${JSON.stringify("permit ".repeat(500))};`);
    const file = path.join(webDir, "assets", "app-abc123.js");
    fs.writeFileSync(file, js);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(js));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(js));
    const app = await buildApp({ config: t.app.ctx.config, database: t.database, webDir });
    try {
      const get = (encoding: string) =>
        app.inject({ method: "GET", url: "/assets/app-abc123.js", headers: { "accept-encoding": encoding } });
      const br = await get("gzip, deflate, br");
      expect(br.headers["content-encoding"]).toBe("br");
      expect(zlib.brotliDecompressSync(br.rawPayload)).toEqual(js);
      const gz = await get("gzip");
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(zlib.gunzipSync(gz.rawPayload)).toEqual(js);
      const plain = await get("identity");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.rawPayload).toEqual(js);
      for (const res of [br, gz, plain]) {
        expect(res.statusCode).toBe(200);
        expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
        expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      }
    } finally {
      await app.close();
    }
  });

  it("answers unknown API paths with 401 when anonymous and a JSON 404 when signed in", async () => {
    expect((await t.anonymous.get("/api/nothing-here")).statusCode).toBe(401);
    const company = await t.make.company();
    const api = await t.signIn(await t.make.user({ companyId: company.id }));
    const res = await api.get("/api/nothing-here");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: "NOT_FOUND", message: "Not found." });
  });

  it("rejects non-JSON bodies with a stable code and never leaks a stack trace", async () => {
    const res = await t.anonymous.request({
      method: "POST",
      url: "/api/auth/sign-in",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    expect(res.json().code).toBe("VALIDATION");
  });

  it("publishes OpenAPI documentation generated from the route schemas, to signed-in users", async () => {
    // Decision (docs/SECURITY.md): the docs are for our users, not for anonymous reconnaissance.
    expect((await t.anonymous.get("/api/docs/json")).statusCode).toBe(401);
    expect((await t.anonymous.get("/api/docs")).statusCode).toBe(401);
    const company = await t.make.company();
    const api = await t.signIn(await t.make.user({ companyId: company.id }));
    const res = await api.get("/api/docs/json");
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.info.version).toBe("1.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/auth/sign-in", "/api/me"]));
    expect(doc.paths["/api/auth/sign-in"].post.requestBody).toBeDefined();
  });
});
