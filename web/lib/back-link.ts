import { paths } from "./paths.ts";

// "Back to Bonds" returns to the list the user came from, with its filters (issue 25): a list's
// links to a record carry the list's URL in the navigation's state, and the record's page reads it.

/** The navigation state a list's link to a record carries. */
export interface FromList {
  from: string;
}

/** The state for a link from the list at `location` (its path and search: the filters, sort and page). */
export const fromList = (location: { pathname: string; search: string }): FromList => ({
  from: location.pathname + location.search,
});

/** Only the lists themselves are ways back: never another site, a record or a form. */
const LIST_URL = /^\/(permits|bonds)(\?[^#]*)?$/;

export interface BackLink {
  to: string;
  label: "Back to Bonds" | "Back to Permits";
}

/**
 * Where the record page's way back goes: the list in the navigation's state when it is one of ours,
 * else the record type's list (/bonds for a bond, /permits otherwise).
 */
export function backLink(state: unknown, isBond: boolean): BackLink {
  const from = typeof state === "object" && state !== null ? (state as Partial<FromList>).from : undefined;
  if (typeof from === "string" && LIST_URL.test(from)) {
    return { to: from, label: from.startsWith(paths.bonds) ? "Back to Bonds" : "Back to Permits" };
  }
  return isBond
    ? { to: paths.bonds, label: "Back to Bonds" }
    : { to: paths.permits, label: "Back to Permits" };
}
