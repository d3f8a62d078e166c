/** The exports feature's public face: its routes. */
export { exportsRoutes } from "./exports.routes.ts";
