// The permit schemas, one resource per file; this file only gathers them for the screens that
// import them from here. New code imports the resource's own file.
export { PERMIT_LIMITS } from "../domain/permit-fields.ts";
export * from "./permit-input.ts";
export * from "./permit-detail.ts";
export * from "./permit-list.ts";
export * from "./permit-list-query.ts";
export * from "./permit-summary.ts";
export * from "./permit-options.ts";
