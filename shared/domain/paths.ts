/**
 * The browser's paths (spec section 2), one home for every link to a screen: the web app's links
 * and navigate(), and the links the server writes into e-mails (reminder digests, Acknowledge
 * links, the test e-mail) and calendar events. The route table itself is web/app/router.tsx; a web
 * test (web/app/paths.test.ts) checks that every path here reaches one of its routes.
 */
export const paths = {
  login: "/login",
  resetPassword: "/reset-password",
  twoFactorSetup: "/two-factor-setup",
  acknowledge: (token: string) => `/acknowledge/${token}`,
  account: "/account",
  permits: "/permits",
  newPermit: "/permits/new",
  permit: (id: string) => `/permits/${id}`,
  editPermit: (id: string) => `/permits/${id}/edit`,
  bonds: "/bonds",
  /** Issue 27: the company-wide document requests (staff). */
  requests: "/requests",
  projectDashboard: (projectId: string) => `/projects/${projectId}/dashboard`,
  newProjectPermit: (projectId: string) => `/projects/${projectId}/permits/new`,
  admin: "/admin",
  companies: "/admin/companies",
  newCompany: "/admin/companies/new",
  editCompany: (id: string) => `/admin/companies/${id}/edit`,
  users: "/admin/users",
  newUser: "/admin/users/new",
  editUser: (id: string) => `/admin/users/${id}/edit`,
  notificationSettings: "/settings/notifications",
  importPermits: "/admin/import-permits",
  projects: "/admin/projects",
  newProject: "/admin/projects/new",
  editProject: (id: string) => `/admin/projects/${id}/edit`,
  permitTemplates: "/admin/permit-templates",
  clients: "/admin/clients",
  newClient: "/admin/clients/new",
  editClient: (id: string) => `/admin/clients/${id}/edit`,
  sureties: "/admin/sureties",
  newSurety: "/admin/sureties/new",
  editSurety: (id: string) => `/admin/sureties/${id}/edit`,
  contacts: "/admin/contacts",
  apiKeys: "/admin/api-keys",
  webhooks: "/admin/webhooks",
  webhookDeliveries: (id: string) => `/admin/webhooks/${id}/deliveries`,
} as const;
