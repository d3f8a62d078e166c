import { describe, expect, it } from "vitest";
import { z } from "zod";
import { responseSerializer } from "./serializer.ts";
import { helmetHeaders } from "./security-headers.ts";

const schema = z.object({ id: z.string(), name: z.string(), tags: z.array(z.string()) });
const route = { schema, method: "GET", url: "/api/things/:id", httpStatus: "200" };
const compile = (strict: boolean) =>
  responseSerializer(strict)(route as unknown as Parameters<ReturnType<typeof responseSerializer>>[0]);

describe("the response serializer", () => {
  it("sends exactly what the schema describes, whatever the order of the keys", () => {
    const serialize = compile(true);
    expect(JSON.parse(serialize({ tags: ["a"], name: "N", id: "1" }))).toEqual({
      id: "1",
      name: "N",
      tags: ["a"],
    });
  });

  it("fails, in development and tests, a response holding a field its schema does not name", () => {
    const serialize = compile(true);
    expect(() => serialize({ id: "1", name: "N", tags: [], passwordHash: "x" })).toThrow(
      /GET \/api\/things\/:id: the response is not exactly what its schema describes/,
    );
  });

  it("fails a response its schema rejects (a missing field, a wrong type)", () => {
    const serialize = compile(true);
    expect(() => serialize({ id: "1", tags: [] })).toThrow();
    expect(() => serialize({ id: 1, name: "N", tags: [] })).toThrow();
  });

  it("in production, sends the presenter's object as JSON with no check, in UTF-8 bytes", () => {
    const serialize = compile(false);
    const sent = serialize({ id: "1", name: "Zürich – Ω", tags: [] }) as unknown;
    expect(Buffer.isBuffer(sent)).toBe(true);
    expect((sent as Buffer).toString("utf8")).toBe('{"id":"1","name":"Zürich – Ω","tags":[]}');
  });
});

describe("the security headers", () => {
  it("are helmet's, computed once: a strict policy, nosniff, no framing", () => {
    const headers = helmetHeaders({
      contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] } },
    });
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["strict-transport-security"]).toMatch(/max-age=/);
    expect(headers["x-powered-by"]).toBeUndefined();
  });
});
