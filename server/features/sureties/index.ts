/**
 * The sureties feature's public face (issue 12): Surety Admin's routes, and the lookups the bond
 * form and imports use to turn a surety's name into the company's surety (found or created).
 */
export { suretiesRoutes } from "./sureties.routes.ts";
export { findOrCreateSuretiesByName, resolveSurety } from "./sureties.service.ts";
