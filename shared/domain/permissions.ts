import type { Role } from "./roles.ts";

/**
 * The permission matrix of spec section 6, in one place. The server checks it on every route
 * and returns the resulting capabilities to the browser, which only shows or hides from them.
 */
export const CAPABILITIES = [
  "permits.view",
  "permits.create",
  "permits.edit",
  "permits.delete",
  "comments.viewInternal",
  "comments.create",
  "attachments.upload",
  "admin.dashboard",
  "companies.list",
  "companies.manage",
  "users.manage",
  "users.manageSuperAdmins",
  "clients.manage",
  "projects.manage",
  "templates.manage",
  "notifications.manage",
  "imports.run",
  "impersonate",
  "allCompanies",
  "reminders.view",
] as const;
export type Capability = (typeof CAPABILITIES)[number];

const ADMIN_COMMON: Capability[] = [
  "permits.view",
  "permits.create",
  "permits.edit",
  "permits.delete",
  "comments.viewInternal",
  "comments.create",
  "attachments.upload",
  "admin.dashboard",
  "companies.list",
  "users.manage",
  "clients.manage",
  "projects.manage",
  "templates.manage",
  "notifications.manage",
  "imports.run",
  "reminders.view",
];

export const PERMISSION_MATRIX: Record<Role, ReadonlySet<Capability>> = {
  "super-admin": new Set<Capability>([
    ...ADMIN_COMMON,
    "companies.manage",
    "users.manageSuperAdmins",
    "impersonate",
    "allCompanies",
  ]),
  "company-admin": new Set<Capability>(ADMIN_COMMON),
  "company-user": new Set<Capability>([
    "permits.view",
    "permits.create",
    "permits.edit",
    "comments.viewInternal",
    "comments.create",
    "attachments.upload",
    // Reminder delivery logs name staff e-mail addresses: staff only.
    "reminders.view",
  ]),
  // A client-user reads its clients' permits and may add (non-internal) comments; it never edits.
  "client-user": new Set<Capability>(["permits.view", "comments.create"]),
};

export function can(role: Role | undefined | null, capability: Capability): boolean {
  return !!role && PERMISSION_MATRIX[role].has(capability);
}

export function capabilitiesOf(role: Role): Capability[] {
  return CAPABILITIES.filter((c) => PERMISSION_MATRIX[role].has(c));
}

export interface NavLink {
  label: string;
  to: string;
}

/** Nav bar of spec section 2 ("Navigation, header, footer"), in display order. */
export function navLinksFor(role: Role | undefined | null): NavLink[] {
  const links: NavLink[] = [{ label: "Permits", to: "/permits" }];
  if (role === "company-admin" || role === "super-admin") {
    links.push(
      { label: "Notifications", to: "/settings/notifications" },
      { label: "Permit Templates", to: "/admin/permit-templates" },
      { label: "Clients", to: "/admin/clients" },
      { label: "Projects", to: "/admin/projects" },
      { label: "Users", to: "/admin/users" },
      { label: "Import", to: "/admin/import-permits" },
    );
  }
  if (role === "super-admin") links.push({ label: "Companies", to: "/admin/companies" });
  return links;
}
