/** The four roles of spec section 1. A signed-in user has exactly one. */
export const ROLES = ["super-admin", "company-admin", "company-user", "client-user"] as const;
export type Role = (typeof ROLES)[number];

/** Roles a company-admin may give; a super-admin may also create super-admins. */
export const COMPANY_ASSIGNABLE_ROLES = [
  "company-admin",
  "company-user",
  "client-user",
] as const satisfies readonly Role[];

export const ROLE_LABELS: Record<Role, string> = {
  "super-admin": "Super Admin",
  "company-admin": "Company Admin",
  "company-user": "Company User",
  "client-user": "Client User",
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export const isAdminRole = (role: Role) => role === "super-admin" || role === "company-admin";

/** A super-admin works across every company and belongs to none (spec section 6). */
export const isSuperAdminRole = (role: string) => role === "super-admin";

/** A company's own staff (not its clients' people): whom a company's two-factor requirement covers. */
export const isCompanyStaffRole = (role: string) => role === "company-admin" || role === "company-user";

/** Only a client-user's view is narrowed to a list of clients, its client filter (spec section 6). */
export const hasClientFilter = (role: string) => role === "client-user";
