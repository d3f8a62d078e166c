import Box from "@mui/material/Box";
import { APP_VERSION } from "../../../shared/domain/constants.ts";

/**
 * The version badge of spec section 2, on every page. It sits at the end of the footer (and of the
 * public pages) rather than fixed over the content, so it never covers a row action or a button
 * at any window size (issue 14).
 */
export function VersionBadge() {
  return (
    <Box
      component="span"
      sx={{
        display: "inline-block",
        ml: "auto",
        px: 1,
        py: 0.25,
        borderRadius: 1,
        fontSize: "0.75rem",
        lineHeight: 1.6,
        bgcolor: "background.paper",
        color: "text.secondary",
        border: 1,
        borderColor: "divider",
        whiteSpace: "nowrap",
      }}
    >
      v{APP_VERSION}
    </Box>
  );
}
