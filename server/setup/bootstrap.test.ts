import { describe, expect, it } from "vitest";
import { users } from "../db/schema.ts";
import { ensureFirstSuperAdmin } from "./bootstrap.ts";
import { loadConfig } from "../config.ts";
import { useTestContext } from "../test-support/harness.ts";

const t = useTestContext();

describe("first start", () => {
  it("creates a super-admin with a generated password, printed once and flagged for reset; then never again", async () => {
    const lines: string[] = [];
    const config = loadConfig({ ADMIN_EMAIL: "owner@example.com" });
    const created = await ensureFirstSuperAdmin(t.db, config, (l) => lines.push(l));
    expect(created?.email).toBe("owner@example.com");
    const password = created!.generatedPassword!;
    expect(password.length).toBeGreaterThanOrEqual(12);
    expect(lines.join("\n")).toContain(password);

    const [row] = await t.db.select().from(users);
    expect(row).toMatchObject({ role: "super-admin", companyId: null, mustResetPassword: true });
    const res = await t.anonymous.post("/api/auth/sign-in", { email: "owner@example.com", password });
    // A super-admin must use two-factor sign-in: after the new password, the set-up comes next.
    expect(res.json()).toEqual({
      codeRequired: false,
      mustResetPassword: true,
      twoFactorSetupRequired: true,
    });

    expect(await ensureFirstSuperAdmin(t.db, config, (l) => lines.push(l))).toBeNull();
    expect(await t.db.select().from(users)).toHaveLength(1);
  });
});
