/** The imports feature's public face: its routes, and the CSV format the export writes back. */
export { importsRoutes } from "./imports.routes.ts";
export { OPTIONAL_EXTRA_COLUMNS } from "./rows.ts";
export { parseCsv } from "./csv.ts";
