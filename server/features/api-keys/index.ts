/** The api-keys feature's public face (issue 30, item 5): the Admin area 'API Keys'. */
export { apiKeysRoutes } from "./api-keys.routes.ts";
