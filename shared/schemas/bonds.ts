// The bond schemas (issue 12), one resource per file; this file only gathers them for the screens
// that import them from here. New code imports the resource's own file.
export { BOND_LIMITS } from "../domain/bond-fields.ts";
export * from "./sureties.ts";
export * from "./bond-ledger.ts";
export * from "./bond-collateral.ts";
export * from "./maintenance-bond.ts";
export * from "./bonds-page.ts";
