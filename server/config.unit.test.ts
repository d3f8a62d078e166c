import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

describe("loadConfig", () => {
  const secret = "0123456789abcdef0123456789abcdef";
  it("refuses production on PostgreSQL without SESSION_SECRET (instances must share it)", () => {
    expect(() => loadConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://db/app" })).toThrow(
      /SESSION_SECRET: required in production on PostgreSQL/,
    );
    expect(() =>
      loadConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://db/app", SESSION_SECRET: "" }),
    ).toThrow(/SESSION_SECRET/);
  });

  it("starts with the secret, and without it on the embedded database or outside production", () => {
    expect(
      loadConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://db/app", SESSION_SECRET: secret })
        .SESSION_SECRET,
    ).toBe(secret);
    expect(loadConfig({ NODE_ENV: "production" }).SESSION_SECRET).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: "postgres://db/app" }).NODE_ENV).toBe("development");
  });
});
