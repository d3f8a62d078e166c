/** The templates feature's public face: its routes. */
export { templatesRoutes } from "./templates.routes.ts";
/** Issue 29: a template's conditions, which a new project's template permits get. */
export { conditionsOfTemplates, type TemplateConditionRow } from "./template-conditions.ts";
