import { describe, expect, it } from "vitest";
import type { Role } from "../../../shared/domain/roles.ts";
import type { Actor } from "../actor.ts";
import { buildKeyActor } from "../actor-from-user.ts";
import { apiKeyCan, canManageApiKeys, canRevokeApiKey } from "./api-key.ts";

const A = "company-a";
const B = "company-b";

function person(role: Role, companyId: string | null = role === "super-admin" ? null : A): Actor {
  return {
    userId: `${role}-id`,
    sessionId: "s",
    role,
    companyId,
    email: "a@example.test",
    name: "A",
    clientIds: [],
    mustResetPassword: false,
    twoFactorSetupRequired: false,
    impersonatorId: null,
    impersonatorName: null,
    impersonatorEmail: null,
  };
}

describe("the API-key policy (issue 30)", () => {
  it("lets admins manage their company's keys, a super-admin any company's", () => {
    expect(canManageApiKeys(person("super-admin"))).toBe(true);
    expect(canManageApiKeys(person("company-admin"))).toBe(true);
    expect(canManageApiKeys(person("company-user"))).toBe(false);
    expect(canManageApiKeys(person("client-user"))).toBe(false);
    expect(canRevokeApiKey(person("company-admin"), { companyId: A })).toBe(true);
    expect(canRevokeApiKey(person("company-admin"), { companyId: B })).toBe(false);
    expect(canRevokeApiKey(person("super-admin"), { companyId: B })).toBe(true);
  });

  it("never lets a key manage keys, whatever its role", () => {
    const key = buildKeyActor({ id: "k", companyId: A, name: "ERP", role: "company-admin" });
    expect(key).toMatchObject({ userId: null, role: "company-admin", companyId: A, name: "API key ERP" });
    expect(canManageApiKeys(key)).toBe(false);
    expect(canRevokeApiKey(key, { companyId: A })).toBe(false);
  });

  it("offers Revoke only on a key not revoked yet", () => {
    const admin = person("company-admin");
    expect(apiKeyCan(admin, { companyId: A, revokedAt: null })).toEqual({ revoke: true });
    expect(apiKeyCan(admin, { companyId: A, revokedAt: new Date() })).toEqual({ revoke: false });
  });
});
