import type { ReactNode } from "react";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import { PRODUCT_NAME } from "../../../../shared/domain/constants.ts";
import productLogoUrl from "../../../assets/permitrack-logo.svg";

/** Centred card with the product logo, shared by the sign-in and reset screens. */
export function AuthCard({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        flex: 1,
        display: "flex",
        alignItems: { xs: "flex-start", sm: "center" },
        justifyContent: "center",
      }}
    >
      <Paper
        variant="outlined"
        sx={{ width: "100%", maxWidth: 420, p: { xs: 3, sm: 4 }, mt: { xs: 2, sm: 0 } }}
      >
        <Box sx={{ display: "flex", justifyContent: "center", mb: 3 }}>
          <Box component="img" src={productLogoUrl} alt={PRODUCT_NAME} sx={{ height: 48, width: "auto" }} />
        </Box>
        {children}
      </Paper>
    </Box>
  );
}
