import { describe, expect, it } from "vitest";
import { ensureFirstSuperAdmin } from "./bootstrap.ts";
import { loadConfig } from "../config.ts";
import { useTestContext } from "../test-support/harness.ts";

const t = useTestContext();

describe("first start with ADMIN_EMAIL and ADMIN_PASSWORD", () => {
  it("creates the super-admin with that password and no forced reset", async () => {
    const config = loadConfig({ ADMIN_EMAIL: "Ops@Example.com", ADMIN_PASSWORD: "chosen-password-9" });
    const created = await ensureFirstSuperAdmin(t.db, config, () => undefined);
    expect(created).toEqual({ email: "ops@example.com", generatedPassword: null });
    const res = await t.anonymous.post("/api/auth/sign-in", {
      email: "ops@example.com",
      password: "chosen-password-9",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      codeRequired: false,
      mustResetPassword: false,
      twoFactorSetupRequired: true,
    });
  });
});
