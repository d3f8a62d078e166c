/**
 * Closing a permit's open condition tasks (issue 29): the permit's close (lifecycle) and a removed
 * condition (conditions) both mark them Not Applicable with a reason. Apart from the conditions
 * feature so the lifecycle can use it without importing the conditions' routes (and, through their
 * evidence upload, the attachments and documents features, which import the lifecycle).
 */
export { closeOpenTasks, countOpenTasks } from "./close-tasks.service.ts";
