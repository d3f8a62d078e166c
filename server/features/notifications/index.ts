/** The notifications feature's public face: its routes and which reminder thresholds a company has on. */
export { notificationsRoutes } from "./notifications.routes.ts";
export { DEFAULT_SWITCHES, companyEscalation, enabledThresholds } from "./notifications.service.ts";
