/**
 * The bonds feature's public face (issue 12): the Bonds page, a bond's ledger and collateral, and
 * 'Start Maintenance Bond'. Ledger entries are written through the bond-ledger feature's writer.
 */
export { bondsRoutes } from "./bonds.routes.ts";
