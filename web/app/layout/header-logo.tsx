import { useState } from "react";
import { Link as RouterLink } from "react-router";
import Box from "@mui/material/Box";
import { LOGO_HEIGHT, PRODUCT_NAME } from "../../../shared/domain/constants.ts";
import type { CompanySummary } from "../../../shared/schemas/auth.ts";
import productLogoUrl from "../../assets/permitrack-logo.svg";
import { paths } from "../../lib/paths.ts";

/** The company's logo when it has one (and it loads), else the product logo; links to /permits. */
export function HeaderLogo({ company }: { company: CompanySummary | null }) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const companyLogo = company?.logoUrl && company.logoUrl !== failedUrl ? company.logoUrl : null;

  return (
    <Box
      component={RouterLink}
      to={paths.permits}
      // At least 44 px tall: the logo is a link a thumb taps on a phone.
      sx={{ display: "inline-flex", alignItems: "center", flexShrink: 0, borderRadius: 1, minHeight: 44 }}
    >
      {companyLogo ? (
        <Box
          component="img"
          src={companyLogo}
          alt={`${company?.name ?? PRODUCT_NAME} logo`}
          onError={() => setFailedUrl(companyLogo)}
          sx={{ height: LOGO_HEIGHT, width: "auto", maxWidth: { xs: 140, sm: 220 }, objectFit: "contain" }}
        />
      ) : (
        <Box
          component="img"
          src={productLogoUrl}
          alt={PRODUCT_NAME}
          // Small on a phone: the bar also holds the calendar, theme, account and menu buttons.
          sx={{ height: { xs: 32, sm: LOGO_HEIGHT }, width: "auto", display: "block" }}
        />
      )}
    </Box>
  );
}
