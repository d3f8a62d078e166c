import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { PRODUCT_NAME } from "../../../shared/domain/constants.ts";
import { useMe } from "../../lib/session.tsx";
import { phoneHref, websiteHref } from "../../lib/urls.ts";
import { VersionBadge } from "./version-badge.tsx";

// A phone's tap target: the footer's links are the only thing on their line there.
const footerLinkSx = {
  display: "inline-flex",
  alignItems: "center",
  minHeight: { xs: 44, md: "auto" },
} as const;

/** Footer of the signed-in pages: the user's company contact details (spec section 2). */
export function AppFooter() {
  const me = useMe();
  const company = me.data?.company ?? null;
  const href = websiteHref(company?.website);

  return (
    <Box
      component="footer"
      sx={{
        borderTop: 1,
        borderColor: "divider",
        bgcolor: "background.paper",
        px: { xs: 2, sm: 3 },
        py: 2,
        display: "flex",
        flexWrap: "wrap",
        columnGap: 3,
        rowGap: 0.5,
        alignItems: "center",
        fontSize: "0.875rem",
        color: "text.secondary",
      }}
    >
      {me.isPending ? (
        <Typography variant="body2">Loading company info...</Typography>
      ) : company ? (
        <>
          <Typography variant="body2" sx={{ fontWeight: 600, color: "text.primary" }}>
            {company.name}
          </Typography>
          {company.address ? <Typography variant="body2">{company.address}</Typography> : null}
          {company.phone ? (
            <Link variant="body2" href={phoneHref(company.phone)} sx={footerLinkSx}>
              {company.phone}
            </Link>
          ) : null}
          {company.website && href ? (
            <Link variant="body2" href={href} target="_blank" rel="noopener noreferrer" sx={footerLinkSx}>
              {company.website}
            </Link>
          ) : null}
        </>
      ) : (
        <Typography variant="body2">{PRODUCT_NAME}</Typography>
      )}
      <VersionBadge />
    </Box>
  );
}
