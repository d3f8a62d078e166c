/**
 * Longest values the bond forms and the bond API accept (sureties, the ledger, collateral, the
 * maintenance bond, the Bonds page's search). Kept without zod, as PERMIT_LIMITS, so that a screen
 * needing only the limits does not load it.
 */
export const BOND_LIMITS = {
  suretyName: 200,
  contactName: 200,
  phone: 50,
  email: 254,
  reason: 500,
  note: 2000,
  bondNumber: 200,
  search: 200,
} as const;
