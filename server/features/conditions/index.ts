/**
 * Conditions of approval as tasks (issue 29, decision 0032): the public face other features use.
 * addConditions(): conditions with their first tasks and audit, in the caller's transaction (a
 * project's template permits, an import); closeOpenTasks() / countOpenTasks(): a permit's close.
 */
export { conditionsRoutes } from "./conditions.routes.ts";
export { tasksRoutes } from "./tasks.routes.ts";
export { eventsRoutes } from "./events.routes.ts";
export { addConditions, type AddConditionsInput, type AddedCondition } from "./add-conditions.service.ts";
export { closeOpenTasks, countOpenTasks } from "./close-tasks.service.ts";
export { specOf, specOfRow, type NewCondition, type ConditionScheduleRow } from "./condition-values.ts";
