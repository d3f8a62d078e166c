import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";

/*
 * Issue 30, item 5: an API key's own rate limit (per key, not per address: both keys below come
 * from the same address), and a key never written to the log, whatever the request.
 */

const lines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString("utf8"));
    done();
  },
});
const t = useTestContext(
  { API_RATE_LIMIT: "100000", API_KEY_RATE_LIMIT: "3", API_KEY_MISS_LIMIT: "3" },
  { logStream },
);
const w = useWorld(t, { permits: true });

async function makeKey(name: string) {
  const res = await w.admin.post("/api/api-keys", { name, role: "company-user" });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().key as string;
}

const get = (key: string, url = "/api/permits") =>
  t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key}` } });

describe("API keys: rate limit and log", () => {
  it("answers 429 past the key's limit, counting per key", async () => {
    const first = await makeKey("Busy");
    const second = await makeKey("Quiet");
    for (let i = 0; i < 3; i++) expect((await get(first)).statusCode).toBe(200);
    const over = await get(first);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    // Another key from the same address has its own count; the admin's session is not limited by them.
    expect((await get(second)).statusCode).toBe(200);
    expect((await w.admin.get("/api/permits")).statusCode).toBe(200);
  });

  it("never writes a key to the log, known or not, on success, refusal or error", async () => {
    const key = await makeKey("Logged");
    const unknown = `ptk_${"Z".repeat(43)}`;
    await get(key, `/api/permits/${w.permitId}`);
    await get(unknown);
    await get(key, "/api/users");
    await get(key, "/api/no-such-route");
    await t.app.inject({ method: "GET", url: "/api/permits", headers: { authorization: `Basic ${key}` } });
    const log = lines.join("");
    expect(log).toContain("request completed");
    expect(log).not.toContain(key.slice(4));
    expect(log).not.toContain(unknown.slice(4));
    expect(log.toLowerCase()).not.toContain("authorization");
  });

  it("counts keys that open nothing against the address: 429 after a few, whatever the next key", async () => {
    const from = (remoteAddress: string, key: string) =>
      t.app.inject({
        method: "GET",
        url: "/api/permits",
        remoteAddress,
        headers: { authorization: `Bearer ${key}` },
      });
    const random = () => `ptk_${Math.random().toString(36).slice(2).padEnd(43, "x")}`;
    for (let i = 0; i < 3; i++) expect((await from("10.9.9.9", random())).statusCode).toBe(401);
    const over = await from("10.9.9.9", random());
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toMatch(/unknown API keys/);
    // Another address is not affected, and a good key from it still works.
    const good = await makeKey("Other address");
    expect((await from("10.9.9.10", good)).statusCode).toBe(200);
    expect((await from("10.9.9.10", random())).statusCode).toBe(401);
  });
});
