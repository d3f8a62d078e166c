/** The templates feature's public face: its routes. */
export { templatesRoutes } from "./templates.routes.ts";
