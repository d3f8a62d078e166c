/**
 * Paths of the route table (spec section 2) for links and navigate(). The route table itself is
 * web/app/router.tsx; keep the two in step.
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
} as const;
