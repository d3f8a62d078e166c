/**
 * The bonds feature's public face (issue 12): the Bonds page, a bond's ledger and collateral, and
 * 'Start Maintenance Bond'. Ledger entries are written through the bond-ledger feature's writer.
 */
export { bondsRoutes } from "./bonds.routes.ts";
/**
 * A ledger entry on a bond locked with its entries, as POST /api/bonds/:id/ledger writes it (an
 * approved document request's rider or release letter goes through it too, issue 27).
 */
export { lockBondWithLedger } from "./bond-access.ts";
export { addLedgerEntry } from "./ledger-entry.service.ts";
