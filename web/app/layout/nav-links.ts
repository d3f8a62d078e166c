import type { Theme } from "@mui/material/styles";
import {
  navLinksFor,
  type Capability,
  type NavLink as NavLinkItem,
} from "../../../shared/domain/permissions.ts";
import type { Me } from "../../../shared/schemas/auth.ts";
import { paths } from "../../lib/paths.ts";

// NavLink marks the current section with class "active" and aria-current="page".
// The darker brand green on the grey of a selected item: 6.4:1 (the brand green itself is not enough).
// On the dark theme a lighter mint: 5.8:1 on the selected grey (the palette's light green was 4.23:1).
const ACTIVE_ON_DARK = "#6fd4b4";
export const activeLinkSx = {
  "&.active": {
    color: (t: Theme) => (t.palette.mode === "dark" ? ACTIVE_ON_DARK : t.palette.secondary.main),
    bgcolor: "action.selected",
  },
} as const;

/**
 * Issue 12's screens, from the capabilities the API granted: 'Bonds' beside 'Permits' for everyone
 * who may read bonds, 'Surety Admin' among the admin links after 'Clients' (and issue 27's
 * 'Contacts' after it). The shared nav table
 * (navLinksFor) does not list them; a link it lists already is not added twice.
 */
const BOND_LINKS: (NavLinkItem & { capability: Capability; after: string })[] = [
  { label: "Bonds", to: paths.bonds, capability: "bonds.view", after: paths.permits },
  // Issue 27: the company's document requests, for the roles that review them, after Bonds.
  { label: "Requests", to: paths.requests, capability: "permits.edit", after: paths.bonds },
  { label: "Surety Admin", to: paths.sureties, capability: "sureties.manage", after: paths.clients },
  // Issue 27: the company's outside contacts, after Surety Admin.
  { label: "Contacts", to: paths.contacts, capability: "contacts.manage", after: paths.sureties },
  // Issue 30: the company's keys to the API, after Users.
  { label: "API Keys", to: paths.apiKeys, capability: "apiKeys.manage", after: paths.users },
  // Issue 30: the company's webhook endpoints, after API Keys.
  { label: "Webhooks", to: paths.webhooks, capability: "webhooks.manage", after: paths.apiKeys },
];

/** The top-level links (Permits, Bonds) and the administration links, in display order. */
export function linksOf(me: Me): { main: NavLinkItem[]; admin: NavLinkItem[] } {
  const links = navLinksFor(me.role);
  for (const extra of BOND_LINKS) {
    if (!me.capabilities.includes(extra.capability) || links.some((l) => l.to === extra.to)) continue;
    const at = links.findIndex((l) => l.to === extra.after);
    links.splice(at === -1 ? links.length : at + 1, 0, { label: extra.label, to: extra.to });
  }
  const isMain = (l: NavLinkItem) =>
    l.to === paths.permits || l.to === paths.bonds || l.to === paths.requests;
  return { main: links.filter(isMain), admin: links.filter((l) => !isMain(l)) };
}
