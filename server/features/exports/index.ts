/**
 * The exports feature's public face: its routes, and the CSV and Excel writers other exports (the
 * Bonds page, the Bond Schedule) write with.
 */
export { exportsRoutes } from "./exports.routes.ts";
export { csvStream, xlsxStream, FILE_TYPES, type Cell, type SheetColumn } from "./writers.ts";
