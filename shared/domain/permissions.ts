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
  "bonds.view",
  "bonds.edit",
  "bonds.viewCollateral",
  "sureties.manage",
  "sureties.viewLimits",
  "contacts.view",
  "contacts.create",
  "contacts.manage",
  "system.backups",
  "apiKeys.manage",
  "webhooks.manage",
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * Bonds (issue 12): staff read and write the ledger (as they edit permits) and see collateral;
 * a client-user reads its clients' bonds only, never collateral or surety limits.
 */
const BOND_STAFF: Capability[] = ["bonds.view", "bonds.edit", "bonds.viewCollateral"];

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
  ...BOND_STAFF,
  // Surety Admin and the company's bonding capacity (issue 12): admins only.
  "sureties.manage",
  "sureties.viewLimits",
  // Contacts (issue 27): staff read them (the form's picker) and add one; admins manage the list.
  "contacts.view",
  "contacts.create",
  "contacts.manage",
  // Issue 30: the company's keys to the JSON API (a key itself can never manage keys).
  "apiKeys.manage",
  // Issue 30: the company's webhook endpoints (a key can never manage them either).
  "webhooks.manage",
];

export const PERMISSION_MATRIX: Record<Role, ReadonlySet<Capability>> = {
  "super-admin": new Set<Capability>([
    ...ADMIN_COMMON,
    "companies.manage",
    "users.manageSuperAdmins",
    "impersonate",
    "allCompanies",
    // The installation's backups (issue 26): the whole database, every company's.
    "system.backups",
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
    ...BOND_STAFF,
    // Contacts (issue 27): the permit form's picker, and a new contact from 'Request Document'.
    "contacts.view",
    "contacts.create",
  ]),
  // A client-user reads its clients' permits and may add (non-internal) comments; it never edits.
  "client-user": new Set<Capability>(["permits.view", "comments.create", "bonds.view"]),
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

/** The nav bar's links, each shown to whoever holds the capability of its screen. */
const NAV_LINKS: (NavLink & { capability?: Capability })[] = [
  // Every signed-in user has the permit list.
  { label: "Permits", to: "/permits" },
  { label: "Notifications", to: "/settings/notifications", capability: "notifications.manage" },
  { label: "Permit Templates", to: "/admin/permit-templates", capability: "templates.manage" },
  { label: "Clients", to: "/admin/clients", capability: "clients.manage" },
  { label: "Projects", to: "/admin/projects", capability: "projects.manage" },
  { label: "Users", to: "/admin/users", capability: "users.manage" },
  { label: "Import", to: "/admin/import-permits", capability: "imports.run" },
  { label: "Companies", to: "/admin/companies", capability: "companies.manage" },
];

/**
 * Nav bar of spec section 2 ("Navigation, header, footer"), in display order, from the matrix:
 * the admin links need company-admin or super-admin, Companies super-admin only (spec section 6).
 */
export function navLinksFor(role: Role | undefined | null): NavLink[] {
  return NAV_LINKS.filter((l) => !l.capability || can(role, l.capability)).map(({ label, to }) => ({
    label,
    to,
  }));
}
