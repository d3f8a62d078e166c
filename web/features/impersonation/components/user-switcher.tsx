/**
 * Header user switcher for super-admins (spec section 2, "Header": the other users grouped by
 * company name, 'No Company' when none). The header already renders it for users with the
 * "impersonate" capability; it draws nothing until GET /api/impersonation/candidates exists.
 *
 * To build it: add api/candidates.ts (query key impersonationCandidatesQueryKey, GET
 * /api/impersonation/candidates) and render an Autocomplete/Select grouped by company whose
 * choice calls useStartImpersonation().mutate(userId) from ../api/impersonation.ts.
 */
export function UserSwitcher() {
  return null;
}
