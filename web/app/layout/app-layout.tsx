import { Outlet } from "react-router";
import Box from "@mui/material/Box";
import Container from "@mui/material/Container";
import Link from "@mui/material/Link";
import { ImpersonationBanner } from "../../features/impersonation/index.ts";
import { useCurrentUser } from "../../lib/session.tsx";
import { AppFooter } from "./app-footer.tsx";
import { AppHeader } from "./app-header.tsx";

/** Frame of every signed-in page: header with nav, optional impersonation banner, main, footer. */
export function AppLayout() {
  const me = useCurrentUser();
  return (
    <Box sx={{ display: "flex", flexDirection: "column", minHeight: "100vh" }}>
      <Link
        href="#main-content"
        sx={{
          position: "absolute",
          left: 8,
          top: -48,
          zIndex: (t) => t.zIndex.tooltip,
          p: 1,
          bgcolor: "background.paper",
          "&:focus": { top: 8 },
        }}
      >
        Skip to main content
      </Link>
      <AppHeader />
      {me.impersonator ? <ImpersonationBanner me={me} /> : null}
      <Container
        component="main"
        id="main-content"
        tabIndex={-1}
        maxWidth="xl"
        sx={{ flex: 1, py: { xs: 2, sm: 3 }, px: { xs: 1.5, sm: 3 }, outline: "none" }}
      >
        <Outlet />
      </Container>
      <AppFooter />
    </Box>
  );
}
