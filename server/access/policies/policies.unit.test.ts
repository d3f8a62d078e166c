import { describe, expect, it } from "vitest";
import type { Role } from "../../../shared/domain/roles.ts";
import type { Actor } from "../actor.ts";
import { canUploadAttachment } from "./attachment.ts";
import { canViewPermitAudit } from "./audit.ts";
import { canManageCalendarFeed } from "./calendar-feed.ts";
import { canCreateClient, canDeleteClient, canEditClient, canListClients } from "./client.ts";
import { canCommentOnPermit, canReadInternalComments, canWriteInternalComment } from "./comment.ts";
import {
  canCreateCompany,
  canDeleteCompany,
  canEditCompany,
  canListCompanies,
  canViewCompany,
  canViewCompanyLogo,
} from "./company.ts";
import { canExportPermits, exportsCompanyColumn } from "./export.ts";
import { canImpersonate, canImpersonateUser } from "./impersonation.ts";
import { canImportPermits } from "./import.ts";
import { canManageNotificationSettings, hasSettingsCompany } from "./notification-settings.ts";
import {
  canCreatePermit,
  canDeletePermit,
  canEditPermit,
  canMovePermitToCompany,
  canUsePermitForm,
  canViewPermit,
  permitCan,
} from "./permit.ts";
import { canCreateProject, canEditProject, canViewProject, projectCan } from "./project.ts";
import { canViewPermitReminders, DIGEST_RECIPIENT_ROLES } from "./reminders.ts";
import { canCreateTemplate, canEditTemplate, canListTemplates } from "./template.ts";
import { canManageUser, canManageUsers } from "./user.ts";

const COMPANY = "company-a";
const OTHER_COMPANY = "company-b";
const CLIENT = "client-1";
const OTHER_CLIENT = "client-2";

function actor(role: Role, over: Partial<Actor> = {}): Actor {
  return {
    userId: `${role}-id`,
    sessionId: "s",
    role,
    companyId: role === "super-admin" ? null : COMPANY,
    email: `${role}@example.test`,
    name: role,
    clientIds: role === "client-user" ? [CLIENT] : [],
    mustResetPassword: false,
    twoFactorSetupRequired: false,
    impersonatorId: null,
    impersonatorName: null,
    impersonatorEmail: null,
    ...over,
  };
}

const ROLES: Role[] = ["super-admin", "company-admin", "company-user", "client-user"];
const permit = { companyId: COMPANY, clientId: CLIENT };
const project = { company_id: COMPANY, client_id: CLIENT };
const client = { id: CLIENT, companyId: COMPANY };
const company = { id: COMPANY };
const template = { company_id: COMPANY };
const staffUser = { id: "someone", role: "company-user", companyId: COMPANY, banned: false };

/** Spec section 6, one row per action, answers in the order super-admin, company-admin, company-user, client-user. */
const TABLE: [string, (a: Actor) => boolean, [boolean, boolean, boolean, boolean]][] = [
  ["view a permit", (a) => canViewPermit(a, permit), [true, true, true, true]],
  ["create a permit", canCreatePermit, [true, true, true, false]],
  ["edit a permit", (a) => canEditPermit(a, permit), [true, true, true, false]],
  ["use the permit form's lookups", canUsePermitForm, [true, true, true, false]],
  ["delete a permit", (a) => canDeletePermit(a, permit), [true, true, false, false]],
  ["move a permit to another company", (a) => canMovePermitToCompany(a, permit), [true, false, false, false]],
  ["see internal comments", canReadInternalComments, [true, true, true, false]],
  ["comment on a permit", (a) => canCommentOnPermit(a, permit), [true, true, true, true]],
  ["write an internal comment", (a) => canWriteInternalComment(a, permit), [true, true, true, false]],
  ["upload an attachment", (a) => canUploadAttachment(a, permit), [true, true, true, false]],
  ["read a permit's audit trail", (a) => canViewPermitAudit(a, permit), [true, true, true, true]],
  ["read a permit's reminder log", (a) => canViewPermitReminders(a, permit), [true, true, true, false]],
  ["export the permit list", canExportPermits, [true, true, true, true]],
  ["see the export's Company column", exportsCompanyColumn, [true, false, false, false]],
  ["list companies", canListCompanies, [true, true, false, false]],
  ["view its company", (a) => canViewCompany(a, company), [true, true, false, false]],
  ["create a company", canCreateCompany, [true, false, false, false]],
  ["edit a company", (a) => canEditCompany(a, company), [true, false, false, false]],
  ["delete a company", (a) => canDeleteCompany(a, company), [true, false, false, false]],
  ["see its company's logo", (a) => canViewCompanyLogo(a, company), [true, true, true, true]],
  ["manage users", canManageUsers, [true, true, false, false]],
  ["manage a user of its company", (a) => canManageUser(a, staffUser), [true, true, false, false]],
  ["view a project", (a) => canViewProject(a, project), [true, true, true, true]],
  ["create a project", canCreateProject, [true, true, false, false]],
  ["edit a project", (a) => canEditProject(a, project), [true, true, false, false]],
  ["list templates", canListTemplates, [true, true, false, false]],
  ["create a template", canCreateTemplate, [true, true, false, false]],
  ["edit a template", (a) => canEditTemplate(a, template), [true, true, false, false]],
  ["list clients", canListClients, [true, true, false, false]],
  ["create a client", canCreateClient, [true, true, false, false]],
  ["edit a client", (a) => canEditClient(a, client), [true, true, false, false]],
  ["delete a client", (a) => canDeleteClient(a, client), [true, true, false, false]],
  ["manage notification settings", canManageNotificationSettings, [true, true, false, false]],
  ["import permits from CSV", canImportPermits, [true, true, false, false]],
  ["impersonate", canImpersonate, [true, false, false, false]],
  ["manage its calendar feed", canManageCalendarFeed, [true, true, true, true]],
];

describe("policies: the role x action table of spec section 6", () => {
  it.each(TABLE)("%s", (_action, decide, expected) => {
    expect(ROLES.map((role) => decide(actor(role)))).toEqual(expected);
  });
});

describe("policies: the record decides too", () => {
  it("refuses a record outside the actor's company or client filter (fails closed)", () => {
    const foreign = { companyId: OTHER_COMPANY, clientId: CLIENT };
    expect(canEditPermit(actor("company-admin"), foreign)).toBe(false);
    expect(canDeletePermit(actor("company-admin"), foreign)).toBe(false);
    expect(canEditPermit(actor("super-admin"), foreign)).toBe(true);
    expect(canViewPermit(actor("client-user"), { companyId: COMPANY, clientId: OTHER_CLIENT })).toBe(false);
    expect(canViewPermit(actor("client-user"), { companyId: COMPANY, clientId: null })).toBe(false);
    expect(canEditCompany(actor("super-admin"), { id: OTHER_COMPANY })).toBe(true);
    expect(canViewCompany(actor("company-admin"), { id: OTHER_COMPANY })).toBe(false);
    expect(canEditTemplate(actor("company-admin"), { company_id: OTHER_COMPANY })).toBe(false);
  });

  it("sends the UI exactly the flags the routes check", () => {
    expect(permitCan(actor("client-user"), permit)).toEqual({
      edit: false,
      delete: false,
      comment: true,
      upload: false,
      viewInternalComments: false,
    });
    expect(permitCan(actor("company-user"), permit)).toEqual({
      edit: true,
      delete: false,
      comment: true,
      upload: true,
      viewInternalComments: true,
    });
    expect(projectCan(actor("company-user"), project)).toEqual({
      edit: false,
      delete: false,
      createPermit: true,
    });
  });

  it("never lets a super-admin be impersonated", () => {
    expect(canImpersonateUser(actor("super-admin"), { role: "company-admin" })).toBe(true);
    expect(canImpersonateUser(actor("super-admin"), { role: "super-admin" })).toBe(false);
    expect(canImpersonateUser(actor("company-admin"), { role: "company-user" })).toBe(false);
  });

  it("sends a company's digest to its staff only", () => {
    expect(DIGEST_RECIPIENT_ROLES).toEqual(["company-admin", "company-user"]);
  });

  it("keeps the calendar feed out of reach while impersonating", () => {
    expect(canManageCalendarFeed(actor("company-user", { impersonatorId: "sa" }))).toBe(false);
  });

  it("needs a company for notification settings unless the actor works across companies", () => {
    expect(hasSettingsCompany(actor("company-admin", { companyId: null }))).toBe(false);
    expect(hasSettingsCompany(actor("company-admin"))).toBe(true);
    expect(hasSettingsCompany(actor("super-admin"))).toBe(true);
  });
});
