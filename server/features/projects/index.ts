/** The projects feature's public face: its routes. */
export { projectsRoutes } from "./projects.routes.ts";
