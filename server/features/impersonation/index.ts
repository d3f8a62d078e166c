/** The impersonation feature's public face: its routes. */
export { impersonationRoutes } from "./impersonation.routes.ts";
