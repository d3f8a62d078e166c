import { createElement, lazy, Suspense, type ComponentType } from "react";
import type { QueryClient } from "@tanstack/react-query";
import { matchRoutes, Navigate, useRoutes, type RouteObject } from "react-router";
import { PageSpinner } from "../components/page-spinner.tsx";
import { preloadRoute, setRoutePreloader } from "../lib/route-preload.ts";
import { meQueryOptions } from "../lib/session.tsx";
import { NotFound } from "./not-found.tsx";
import { PublicLayout } from "./layout/public-layout.tsx";
import { RootLayout } from "./layout/root-layout.tsx";
import { RouteBoundary } from "./route-error.tsx";

/**
 * The route table of spec section 2, in one place. Every screen is its own lazily loaded
 * chunk (React.lazy), so the sign-in page never downloads the app shell, charts or admin
 * screens. Declarative routing (<BrowserRouter> + useRoutes) is used rather than a data
 * router: TanStack Query does the loading, and it keeps about 16 KB gzip off the first load.
 *
 * To add a screen: create web/features/<feature>/routes/<screen>.tsx with a default export,
 * add `{ path: "...", ...page(() => import("../features/<feature>/routes/<screen>.tsx")) }`
 * to `protectedRoutes` (behind the session guard) or to the public children, and add its
 * path helper to web/lib/paths.ts.
 */
interface RouteHandle {
  preload?: () => Promise<unknown>;
}

function page(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, "element" | "handle"> {
  // Once the module is here (preloaded, or rendered before), render it without suspending.
  let loaded: ComponentType | undefined;
  const loadModule = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const LazyPage = lazy(loadModule);
  const Screen = () => (loaded ? createElement(loaded) : <LazyPage />);
  const handle: RouteHandle = { preload: loadModule };
  return {
    element: (
      <RouteBoundary>
        <Suspense fallback={<PageSpinner />}>
          <Screen />
        </Suspense>
      </RouteBoundary>
    ),
    handle,
  };
}

/** Screens behind the session guard; they share the nav bar, main area, footer and badge. */
const protectedRoutes: RouteObject[] = [
  { path: "permits", ...page(() => import("../features/permits/routes/permits-list.tsx")) },
  { path: "permits/new", ...page(() => import("../features/permits/routes/permit-create.tsx")) },
  { path: "permits/:id/edit", ...page(() => import("../features/permits/routes/permit-edit.tsx")) },
  { path: "permits/:id", ...page(() => import("./permit-detail/permit-detail-page.tsx")) },
  // Issue 12: the bonds, their exposure by surety, client and project, and the exports.
  { path: "bonds", ...page(() => import("../features/bonds/routes/bonds-list.tsx")) },
  {
    path: "projects/:projectId/dashboard",
    ...page(() => import("../features/projects/routes/project-dashboard.tsx")),
  },
  {
    path: "projects/:projectId/permits/new",
    ...page(() => import("../features/permits/routes/project-permit-create.tsx")),
  },
  { path: "admin", ...page(() => import("../features/admin/routes/admin-dashboard.tsx")) },
  { path: "admin/companies", ...page(() => import("../features/companies/routes/companies-list.tsx")) },
  {
    path: "admin/companies/new",
    ...page(() => import("../features/companies/routes/company-create.tsx")),
  },
  {
    path: "admin/companies/:id/edit",
    ...page(() => import("../features/companies/routes/company-edit.tsx")),
  },
  { path: "admin/users", ...page(() => import("../features/users/routes/users-list.tsx")) },
  { path: "admin/users/new", ...page(() => import("../features/users/routes/user-create.tsx")) },
  { path: "admin/users/:id/edit", ...page(() => import("../features/users/routes/user-edit.tsx")) },
  {
    path: "settings/notifications",
    ...page(() => import("../features/notifications/routes/notification-settings.tsx")),
  },
  {
    path: "admin/import-permits",
    ...page(() => import("../features/imports/routes/import-permits.tsx")),
  },
  { path: "admin/projects", ...page(() => import("../features/projects/routes/projects-admin.tsx")) },
  {
    path: "admin/projects/new",
    ...page(() => import("../features/projects/routes/project-create.tsx")),
  },
  {
    path: "admin/projects/:id/edit",
    ...page(() => import("../features/projects/routes/project-edit.tsx")),
  },
  {
    path: "admin/permit-templates",
    ...page(() => import("../features/templates/routes/permit-templates.tsx")),
  },
  { path: "admin/clients", ...page(() => import("../features/clients/routes/clients-list.tsx")) },
  { path: "admin/clients/new", ...page(() => import("../features/clients/routes/client-create.tsx")) },
  {
    path: "admin/clients/:id/edit",
    ...page(() => import("../features/clients/routes/client-edit.tsx")),
  },
  // Issue 12: Surety Admin, the company's sureties and their limits (admins).
  { path: "admin/sureties", ...page(() => import("../features/sureties/routes/sureties-list.tsx")) },
  {
    path: "admin/sureties/new",
    ...page(() => import("../features/sureties/routes/surety-create.tsx")),
  },
  {
    path: "admin/sureties/:id/edit",
    ...page(() => import("../features/sureties/routes/surety-edit.tsx")),
  },
  // Issue 27: every document request of the company (staff).
  { path: "requests", ...page(() => import("../features/document-requests/routes/requests-page.tsx")) },
  // Issue 27: the company's outside contacts (admins).
  { path: "admin/contacts", ...page(() => import("../features/contacts/routes/contacts-list.tsx")) },
  // Issue 30: the company's API keys (admins).
  { path: "admin/api-keys", ...page(() => import("../features/api-keys/routes/api-keys-list.tsx")) },
  // Issue 30: the company's webhook endpoints and each one's delivery log (admins).
  { path: "admin/webhooks", ...page(() => import("../features/webhooks/routes/webhooks-list.tsx")) },
  {
    path: "admin/webhooks/:id/deliveries",
    ...page(() => import("../features/webhooks/routes/webhook-deliveries.tsx")),
  },
  // Not in the spec's table: the signed-in user's own settings (two-factor sign-in), every role.
  { path: "account", ...page(() => import("../features/account/routes/account.tsx")) },
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <Navigate to="/login" replace /> },
      {
        element: <PublicLayout />,
        children: [
          { path: "login", ...page(() => import("../features/auth/routes/login.tsx")) },
          {
            path: "reset-password",
            ...page(() => import("../features/auth/routes/reset-password.tsx")),
          },
          {
            path: "two-factor-setup",
            ...page(() => import("../features/account/routes/two-factor-setup.tsx")),
          },
          // A reminder e-mail's Acknowledge link (issue 11): no sign-in for that one action.
          {
            path: "acknowledge/:token",
            ...page(() => import("../features/acknowledge/routes/acknowledge.tsx")),
          },
          // A document request's link (issue 27): an outside party sends a document, no sign-in.
          {
            path: "request/:token",
            ...page(() => import("../features/document-requests/routes/request-link.tsx")),
          },
          // A client status link (issue 30): a project's or client's compliance status, no sign-in.
          {
            path: "status/:token",
            ...page(() => import("../features/packets/routes/status-page.tsx")),
          },
          { path: "*", element: <NotFound /> },
        ],
      },
      // Session guard + header/nav/footer: one chunk; each screen in it has its own error boundary.
      { ...page(() => import("./app-shell.tsx")), children: protectedRoutes },
    ],
  },
];

setRoutePreloader(async (pathname) => {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(matches.map((match) => (match.route.handle as RouteHandle | undefined)?.preload?.()));
});

/**
 * Before the first render (web/main.tsx): asks for the session when the screen at `pathname` is
 * behind the session guard, and resolves once the code of that screen and of its layouts is here.
 * Rendered then, the screen does not suspend: React holds back a suspended screen's content for up
 * to 300 ms after its spinner appeared, and the guard would ask for /api/me only once the app
 * shell's code had come.
 */
export function prepareFirstScreen(pathname: string, queryClient: QueryClient): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  if (matches.some((match) => match.route.children === protectedRoutes)) {
    void queryClient.prefetchQuery(meQueryOptions);
  }
  return preloadRoute(pathname);
}

/** Renders the route table; mounted inside <BrowserRouter> by web/main.tsx. */
export function AppRoutes() {
  return useRoutes(routes);
}
