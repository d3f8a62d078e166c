import { describe, expect, it } from "vitest";
import { useTestContext } from "../test-support/harness.ts";

const t = useTestContext({ SIGNIN_IP_LIMIT: "3", SIGNIN_ACCOUNT_LIMIT: "100" });

describe("sign-in rate limit per address", () => {
  it("answers 429 with Retry-After once an address exceeds its attempts, whatever the account", async () => {
    const attempt = (n: number) =>
      t.anonymous.request({
        method: "POST",
        url: "/api/auth/sign-in",
        remoteAddress: "203.0.113.7",
        payload: { email: `someone${n}@example.com`, password: "wrong-password" },
      });
    for (let i = 0; i < 3; i++) expect((await attempt(i)).statusCode).toBe(401);
    const res = await attempt(99);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    // another address is unaffected
    const other = await t.anonymous.request({
      method: "POST",
      url: "/api/auth/sign-in",
      remoteAddress: "198.51.100.1",
      payload: { email: "someone@example.com", password: "wrong-password" },
    });
    expect(other.statusCode).toBe(401);
  });
});
