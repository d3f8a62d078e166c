/** The users feature's public face: its routes. */
export { usersRoutes } from "./users.routes.ts";
