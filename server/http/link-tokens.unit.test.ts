import { Writable } from "node:stream";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { compilePattern, LinkTokenPaths, redactUrl } from "./link-tokens.ts";
import { OneLinePerRequest, requestLogOptions } from "./request-log.ts";

const TOKEN = "Zx9_secret-token-0123456789abcdefghijklmnopq";

describe("redactUrl", () => {
  const patterns = [
    compilePattern("/acknowledge/:token"),
    compilePattern("/api/acknowledgements/:token"),
    compilePattern("/api/calendar/:file", "file"),
    compilePattern("/api/links/:token/accept"),
  ];
  const redact = (url: string) => redactUrl(url, patterns);

  it("masks the token segment of each link path, and nothing else", () => {
    expect(redact(`/acknowledge/${TOKEN}`)).toBe("/acknowledge/[redacted]");
    expect(redact(`/api/acknowledgements/${TOKEN}`)).toBe("/api/acknowledgements/[redacted]");
    expect(redact(`/api/calendar/${TOKEN}.ics`)).toBe("/api/calendar/[redacted]");
    expect(redact(`/api/links/${TOKEN}/accept`)).toBe("/api/links/[redacted]/accept");
    expect(redact(`/api/links/${TOKEN}/other`)).toBe("/api/links/[redacted]/other");
    expect(redact("/api/permits/123?sort=name")).toBe("/api/permits/123?sort=name");
    expect(redact("/acknowledge")).toBe("/acknowledge");
    expect(redact("/")).toBe("/");
  });

  it("reads the path as the router does: escapes, case, doubled and trailing slashes, absolute form", () => {
    expect(redact(`/api/acknowledgement%73/${TOKEN}`)).toBe("/api/acknowledgement%73/[redacted]");
    expect(redact(`/ACKNOWLEDGE/${TOKEN}/`)).toBe("/ACKNOWLEDGE/[redacted]/");
    expect(redact(`//acknowledge//${TOKEN}`)).toBe("//acknowledge//[redacted]");
    expect(redact(`/acknowledge/${TOKEN}/more?x=1#top`)).toBe("/acknowledge/[redacted]/more?x=1#top");
    expect(redact(`http://evil.example/acknowledge/${TOKEN}`)).toBe(
      "http://evil.example/acknowledge/[redacted]",
    );
    expect(redact(`/acknowledge/%E0%A4%A/${TOKEN}`)).toBe(`/acknowledge/[redacted]/${TOKEN}`);
  });

  it("masks token query parameters on any path, keeping the others", () => {
    expect(redact(`/login?token=${TOKEN}&next=%2Fpermits`)).toBe("/login?token=[redacted]&next=%2Fpermits");
    expect(redact(`/x?a=1&access_token=${TOKEN}&Feed%54oken=${TOKEN}`)).toBe(
      "/x?a=1&access_token=[redacted]&Feed%54oken=[redacted]",
    );
    expect(redact(`/acknowledge/${TOKEN}?token=${TOKEN}`)).toBe("/acknowledge/[redacted]?token=[redacted]");
    expect(redact("/x?tokens")).toBe("/x?tokens");
  });

  it("refuses a route that names a link token its path does not have", () => {
    expect(() => compilePattern("/api/calendar/:file", "token")).toThrow(/not a parameter/);
  });
});

describe("the request log", () => {
  /** A bare app with the request logging of buildApp, logging into memory. */
  async function appLoggingTo(lines: Record<string, unknown>[]) {
    const stream = new Writable({
      write(chunk: Buffer, _e, done) {
        for (const l of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    const links = new LinkTokenPaths();
    const app = Fastify({
      logger: requestLogOptions({ level: "info", stream }, links),
      logController: new OneLinePerRequest(),
    });
    app.addHook("onRoute", links.onRoute);
    app.get("/api/feeds/:token", { config: { linkToken: "token" } }, async () => {
      throw new Error("feed failed");
    });
    app.get("/api/plain/:id", async () => "ok");
    await app.ready();
    return app;
  }

  it("masks a declared route's token in fastify's error line of a 5xx and in the request line", async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appLoggingTo(lines);
    expect((await app.inject({ method: "GET", url: `/api/feeds/${TOKEN}` })).statusCode).toBe(500);
    expect((await app.inject({ method: "GET", url: "/api/plain/42" })).statusCode).toBe(200);
    await app.close();
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
    const urls = lines.filter((l) => l.req).map((l) => [l.msg, (l.req as { url: string }).url]);
    expect(urls).toEqual([
      ["feed failed", "/api/feeds/[redacted]"],
      ["request completed", "/api/feeds/[redacted]"],
      ["request completed", "/api/plain/42"],
    ]);
    expect(lines.find((l) => l.msg === "request completed")?.req).toEqual({
      method: "GET",
      url: "/api/feeds/[redacted]",
      remoteAddress: "127.0.0.1",
    });
  });

  it("masks a link page's token in fastify's default 404 line", async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appLoggingTo(lines);
    expect((await app.inject({ method: "GET", url: `/acknowledge/${TOKEN}` })).statusCode).toBe(404);
    expect((await app.inject({ method: "GET", url: `/api/feeds/${TOKEN}/x` })).statusCode).toBe(404);
    await app.close();
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
    expect(
      lines.filter((l) => l.msg === "route not found").map((l) => (l.req as { url: string }).url),
    ).toEqual(["/acknowledge/[redacted]", "/api/feeds/[redacted]/x"]);
  });

  it("logs nothing when the app is built without a logger", () => {
    expect(requestLogOptions(undefined, new LinkTokenPaths())).toBe(false);
    expect(requestLogOptions(false, new LinkTokenPaths())).toBe(false);
  });
});
