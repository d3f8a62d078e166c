import { describe, expect, it } from "vitest";
import type { Role } from "../../../shared/domain/roles.ts";
import type { Actor } from "../actor.ts";
import {
  canAssignRole,
  canChangeRole,
  canChooseUserCompany,
  canDeleteUser,
  canManageUser,
  canResetTwoFactor,
  removesSuperAdmin,
  userCan,
  type UserRecord,
} from "./user.ts";

const COMPANY = "company-a";

function actor(role: Role, userId = `${role}-id`): Actor {
  return {
    userId,
    sessionId: "s",
    role,
    companyId: role === "super-admin" ? null : COMPANY,
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

const user = (over: Partial<UserRecord> = {}): UserRecord => ({
  id: "target",
  role: "company-user",
  companyId: COMPANY,
  banned: false,
  ...over,
});
const superAdmin = user({ id: "other-sa", role: "super-admin", companyId: null });

describe("user policy (spec section 6: users)", () => {
  it("lets a super-admin manage every user, super-admins included", () => {
    expect(canManageUser(actor("super-admin"), superAdmin)).toBe(true);
    expect(canManageUser(actor("super-admin"), user({ companyId: "company-b" }))).toBe(true);
  });

  it("keeps a company-admin to its own company and away from super-admins", () => {
    const admin = actor("company-admin");
    expect(canManageUser(admin, user())).toBe(true);
    expect(canManageUser(admin, user({ companyId: "company-b" }))).toBe(false);
    expect(canManageUser(admin, superAdmin)).toBe(false);
    expect(canAssignRole(admin, "super-admin")).toBe(false);
    expect(canAssignRole(admin, "company-admin")).toBe(true);
    expect(canAssignRole(actor("super-admin"), "super-admin")).toBe(true);
    expect(canChooseUserCompany(admin)).toBe(false);
    expect(canChooseUserCompany(actor("super-admin"))).toBe(true);
  });

  it("refuses company-users and client-users everything", () => {
    for (const role of ["company-user", "client-user"] as const) {
      expect(userCan(actor(role), user())).toEqual({
        edit: false,
        delete: false,
        disable: false,
        enable: false,
        editClients: false,
        resetTwoFactor: false,
      });
      expect(userCan(actor(role), user({ twoFactorEnabled: true })).resetTwoFactor).toBe(false);
      expect(canAssignRole(actor(role), "company-user")).toBe(false);
    }
  });

  it("never lets anyone disable, delete or change the role of themselves", () => {
    const admin = actor("company-admin", "target");
    const self = user({ role: "company-admin" });
    expect(userCan(admin, self)).toMatchObject({ edit: true, delete: false, disable: false });
    expect(canChangeRole(admin, self, "company-user")).toBe(false);
    expect(canChangeRole(admin, self, "company-admin")).toBe(true);
    expect(canChangeRole(actor("company-admin"), user(), "company-admin")).toBe(true);
  });

  it("enables a disabled user before it may be deleted", () => {
    const admin = actor("company-admin");
    expect(userCan(admin, user({ banned: true }))).toMatchObject({
      delete: false,
      disable: false,
      enable: true,
    });
    expect(canDeleteUser(admin, user())).toBe(true);
  });

  it("edits a client filter only for a client-user", () => {
    const admin = actor("company-admin");
    expect(userCan(admin, user({ role: "client-user" })).editClients).toBe(true);
    expect(userCan(admin, user()).editClients).toBe(false);
  });

  it("knows which changes take a super-admin away (the last one is kept by the service)", () => {
    expect(removesSuperAdmin(superAdmin, { role: "company-admin" })).toBe(true);
    expect(removesSuperAdmin(superAdmin, { role: "super-admin" })).toBe(false);
    expect(removesSuperAdmin(superAdmin, { disabled: true })).toBe(true);
    expect(removesSuperAdmin(superAdmin, { disabled: false })).toBe(false);
    expect(removesSuperAdmin(superAdmin, { deleted: true })).toBe(true);
    expect(removesSuperAdmin(user(), { deleted: true })).toBe(false);
  });

  it("lets an admin reset the second factor of a user it manages, never its own nor a super-admin's", () => {
    const enrolled = user({ twoFactorEnabled: true });
    const admin = actor("company-admin");
    expect(canResetTwoFactor(admin, enrolled)).toBe(true);
    expect(canResetTwoFactor(admin, user())).toBe(false); // nothing to reset
    expect(canResetTwoFactor(admin, user({ twoFactorEnabled: true, companyId: "company-b" }))).toBe(false);
    expect(canResetTwoFactor(admin, { ...superAdmin, twoFactorEnabled: true })).toBe(false);
    expect(canResetTwoFactor(actor("company-admin", "target"), enrolled)).toBe(false); // self
    expect(canResetTwoFactor(actor("super-admin"), { ...superAdmin, twoFactorEnabled: true })).toBe(true);
    expect(
      canResetTwoFactor(actor("super-admin"), user({ twoFactorEnabled: true, companyId: "company-b" })),
    ).toBe(true);
  });
});
