/** Saved views of the All Permits list: their routes are all other code needs. */
export { savedViewsRoutes } from "./saved-views.routes.ts";
