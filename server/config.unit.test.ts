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

  it("reads the object storage settings: S3_BUCKET turns S3 on, the region defaults, keys come in pairs", () => {
    const local = loadConfig({});
    expect(local.S3_BUCKET).toBeUndefined();
    expect(local.S3_REGION).toBe("us-east-1");
    expect(local.S3_FORCE_PATH_STYLE).toBe(false);
    const s3 = loadConfig({
      S3_BUCKET: "permitrack-files",
      S3_ENDPOINT: "https://garage.internal:3900",
      S3_REGION: "",
      S3_ACCESS_KEY_ID: "GK0123",
      S3_SECRET_ACCESS_KEY: "a-secret-key",
      S3_FORCE_PATH_STYLE: "true",
    });
    expect(s3).toMatchObject({
      S3_BUCKET: "permitrack-files",
      S3_ENDPOINT: "https://garage.internal:3900",
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: true,
    });
    // Neither key: the AWS SDK's own chain (an instance role); one alone is a mistake.
    expect(loadConfig({ S3_BUCKET: "b-1" }).S3_ACCESS_KEY_ID).toBeUndefined();
    expect(() => loadConfig({ S3_BUCKET: "b-1", S3_ACCESS_KEY_ID: "GK0123" })).toThrow(
      /S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither/,
    );
    // A bad value is named, and the message never repeats a secret.
    let message = "";
    try {
      loadConfig({
        S3_ENDPOINT: "not a url",
        S3_SECRET_ACCESS_KEY: "a-secret-key",
        S3_FORCE_PATH_STYLE: "yes",
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/S3_ENDPOINT/);
    expect(message).toMatch(/S3_FORCE_PATH_STYLE/);
    expect(message).not.toContain("a-secret-key");
  });
});
