import { Outlet } from "react-router";
import Box from "@mui/material/Box";
import { ThemeToggle } from "../../components/theme-toggle.tsx";
import { VersionBadge } from "./version-badge.tsx";

/** Sign-in, reset-password and 404: no header, nav or footer (spec section 2). */
export function PublicLayout() {
  return (
    <Box sx={{ minHeight: "100vh", display: "flex", flexDirection: "column" }}>
      <Box sx={{ display: "flex", justifyContent: "flex-end", p: 1 }}>
        <ThemeToggle />
      </Box>
      <Box component="main" sx={{ flex: 1, display: "flex", flexDirection: "column", px: 2, pb: 6 }}>
        <Outlet />
      </Box>
      <Box component="footer" sx={{ display: "flex", justifyContent: "flex-end", px: 2, pb: 1.5 }}>
        <VersionBadge />
      </Box>
    </Box>
  );
}
