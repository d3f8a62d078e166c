import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import Toolbar from "@mui/material/Toolbar";
import { preloadTooltips } from "../../components/lazy-tooltip.tsx";
import { ThemeToggle } from "../../components/theme-toggle.tsx";
import { AccountMenu } from "../../features/account/index.ts";
import { UserSwitcher } from "../../features/impersonation/index.ts";
import { CalendarFeedButton } from "../../features/calendar/index.ts";
import { useCan, useCurrentUser } from "../../lib/session.tsx";
import { HeaderLogo } from "./header-logo.tsx";
import { DesktopNav, MobileNav } from "./main-nav.tsx";

/** Header + nav bar of the signed-in pages (hidden on /login, which uses the public layout). */
export function AppHeader() {
  const me = useCurrentUser();
  const canImpersonate = useCan("impersonate");
  return (
    // The icons' tooltips are fetched as the pointer comes into the bar, before it reaches them.
    <AppBar
      position="sticky"
      color="inherit"
      onPointerEnter={preloadTooltips}
      sx={{ borderBottom: 1, borderColor: "divider" }}
    >
      <Toolbar sx={{ gap: { xs: 0.25, sm: 2 }, minHeight: { xs: 64, sm: 76 }, px: { xs: 1, sm: 3 } }}>
        <HeaderLogo company={me.company} />
        <DesktopNav />
        <Box sx={{ flex: 1, display: { lg: "none" } }} />
        {canImpersonate ? <UserSwitcher /> : null}
        <CalendarFeedButton />
        <ThemeToggle />
        <AccountMenu />
        <MobileNav />
      </Toolbar>
    </AppBar>
  );
}
