import Box from "@mui/material/Box";
import { APP_VERSION } from "../../../shared/domain/constants.ts";

/** Fixed version badge on every page (spec section 2). It never takes clicks from what is under it. */
export function VersionBadge() {
  return (
    <Box
      sx={{
        position: "fixed",
        right: 8,
        bottom: 8,
        zIndex: (theme) => theme.zIndex.appBar - 1,
        px: 1,
        py: 0.25,
        borderRadius: 1,
        fontSize: "0.75rem",
        lineHeight: 1.6,
        pointerEvents: "none",
        bgcolor: "background.paper",
        color: "text.secondary",
        border: 1,
        borderColor: "divider",
        opacity: 0.9,
      }}
    >
      v{APP_VERSION}
    </Box>
  );
}
