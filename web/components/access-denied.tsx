import { Link as RouterLink } from "react-router";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { paths } from "../lib/paths.ts";

/** The one text every screen shows to a role that may not use it (issue 25: there were several). */
export const ACCESS_DENIED = "Access denied.";

/**
 * Shown in place of a screen the user's role may not use (the server refuses it anyway): one text
 * everywhere, and a way back home (the permits list), as a missing page and a crashed screen offer.
 */
export function AccessDenied() {
  return (
    <Alert
      severity="error"
      sx={{ mt: 2, alignItems: "center" }}
      action={
        <Button component={RouterLink} to={paths.permits} color="inherit" size="small">
          Back to home
        </Button>
      }
    >
      {ACCESS_DENIED}
    </Alert>
  );
}
