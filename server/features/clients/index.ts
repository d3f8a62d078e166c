/** The clients feature's public face: its routes and the client lookups projects, templates and imports share. */
export { clientsRoutes } from "./clients.routes.ts";
export {
  assertCompanyExists,
  findOrCreateClientByName,
  findOrCreateClientsByName,
} from "./clients.service.ts";
