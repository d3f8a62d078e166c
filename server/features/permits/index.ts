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
export {
  likePattern,
  listConditions,
  listKeyset,
  listOrder,
  notClosedCondition,
} from "./permit-list-conditions.ts";
export { statusFacts } from "./permits.presenter.ts";
export { createPermitIn } from "./permits.service.ts";
/** Issue 28: accepting a document's suggestions saves through the form's own update and presenter. */
export { updatePermit } from "./permits.service.ts";
export { presentPermit } from "./permits.presenter.ts";
export { permitInputOf } from "./permit-input-of.ts";
/** A user's display name as SQL (the audit trail names the Responsible Person with it). */
export { userNameSql } from "./permit-sql.ts";
/** Issue 29: a permit's open condition tasks in brief (the list's and the export's JSON column). */
export { taskCountsSql, type TaskCountsRow } from "./permit-sql.ts";
export { tasksDueCondition } from "./permit-list-conditions.ts";
export { presentScopeContents, scopeContentsSql, type ScopeContentsRow } from "./scope-contents.query.ts";
