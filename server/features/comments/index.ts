/** The comments feature's public face: its routes. */
export { commentsRoutes } from "./comments.routes.ts";
