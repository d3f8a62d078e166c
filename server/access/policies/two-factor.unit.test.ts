import { describe, expect, it } from "vitest";
import type { Role } from "../../../shared/domain/roles.ts";
import type { Actor } from "../actor.ts";
import { canDisableOwnTwoFactor, mustUseTwoFactor, ownTwoFactorCan } from "./two-factor.ts";

function actor(role: Role, impersonatorId: string | null = null): Actor {
  return {
    userId: "u",
    sessionId: "s",
    role,
    companyId: role === "super-admin" ? null : "c",
    email: "a@example.test",
    name: "A",
    clientIds: [],
    mustResetPassword: false,
    twoFactorSetupRequired: false,
    impersonatorId,
    impersonatorName: impersonatorId ? "Sue" : null,
    impersonatorEmail: null,
  };
}

describe("who must use two-factor sign-in (decision 0011)", () => {
  it("is always a super-admin, with or without a company setting", () => {
    expect(mustUseTwoFactor({ role: "super-admin" }, null)).toBe(true);
    expect(mustUseTwoFactor({ role: "super-admin" }, { requireTwoFactor: false })).toBe(true);
  });

  it("is a company's staff when the company requires it, never its client-users", () => {
    for (const role of ["company-admin", "company-user"]) {
      expect(mustUseTwoFactor({ role }, { requireTwoFactor: true })).toBe(true);
      expect(mustUseTwoFactor({ role }, { requireTwoFactor: false })).toBe(false);
    }
    expect(mustUseTwoFactor({ role: "client-user" }, { requireTwoFactor: true })).toBe(false);
  });
});

describe("one's own second factor", () => {
  it("may be turned off only when nothing requires it, and never while impersonating", () => {
    expect(canDisableOwnTwoFactor(actor("company-user"), false)).toBe(true);
    expect(canDisableOwnTwoFactor(actor("company-user"), true)).toBe(false);
    expect(canDisableOwnTwoFactor(actor("company-user", "sa"), false)).toBe(false);
  });

  it("offers what fits the state", () => {
    expect(ownTwoFactorCan(actor("client-user"), { enabled: false, required: false })).toEqual({
      enable: true,
      disable: false,
      regenerateRecoveryCodes: false,
    });
    expect(ownTwoFactorCan(actor("super-admin"), { enabled: true, required: true })).toEqual({
      enable: false,
      disable: false,
      regenerateRecoveryCodes: true,
    });
    expect(ownTwoFactorCan(actor("company-user", "sa"), { enabled: true, required: false })).toEqual({
      enable: false,
      disable: false,
      regenerateRecoveryCodes: false,
    });
  });
});
