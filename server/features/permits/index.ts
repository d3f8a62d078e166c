/**
 * The permits feature's public face: its routes, the scoped permit lookup every permit sub-resource
 * goes through, and the permit view (permit with company, project and client) other features read.
 */
export { permitsRoutes } from "./permits.routes.ts";
export {
  findVisiblePermit,
  visiblePermitCondition,
  visiblePermitParams,
  builtOnceForViewer,
  visiblePermitKey,
  visiblePermitOf,
  type PermitRow,
} from "./permit-access.ts";
export { permitScope, selectPermitView, type PermitViewSelect } from "./permit-view.query.ts";
export { likePattern, listConditions, listKeyset, listOrder } from "./permit-list-conditions.ts";
export { createPermitIn } from "./permits.service.ts";
