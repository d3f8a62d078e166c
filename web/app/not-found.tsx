import { Link as RouterLink } from "react-router";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { usePageTitle } from "../lib/page-title.ts";

/** Any path outside the route table (spec section 2). */
export function NotFound() {
  usePageTitle("Page Not Found");
  return (
    <Box sx={{ textAlign: "center", py: 8, px: 2 }}>
      <Typography variant="h1" sx={{ mb: 2 }}>
        404 – Page Not Found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        The page you are looking for does not exist or has moved.
      </Typography>
      <Link component={RouterLink} to="/">
        Back to home
      </Link>
    </Box>
  );
}
