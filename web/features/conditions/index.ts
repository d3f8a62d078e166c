// The conditions feature's public face (issue 29): the permit's Conditions card with its dialogs
// (Add Condition, Complete Task, Not Applicable), the project dashboard's 'Log Event' and its
// Tasks card.
export { ConditionsCard } from "./components/conditions-card.tsx";
export { LogEventButton } from "./components/log-event.tsx";
export { ProjectTasksCard, type ProjectTasks } from "./components/project-tasks-card.tsx";
