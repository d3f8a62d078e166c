import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import CloseIcon from "@mui/icons-material/Close";
import { DRAWER_WIDTH } from "../../../../shared/domain/constants.ts";
import type { Surety } from "../../../../shared/schemas/bonds.ts";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { useUnsavedChanges } from "../../../components/unsaved-changes.tsx";
import { SuretyForm } from "./surety-form.tsx";

/**
 * The right-side drawer (400 px; the whole width on a phone) holding the surety form, as the
 * Clients screen's. Closing it with unsaved changes asks first.
 */
export function SuretyDrawer({
  mode,
  surety,
  isLoading,
  closeTo,
  onClose,
}: {
  mode: "create" | "edit";
  /** The surety being edited (found in the list); undefined while the list loads or when unknown. */
  surety?: Surety;
  isLoading: boolean;
  closeTo: string;
  onClose: () => void;
}) {
  const [isDirty, setIsDirty] = useState(false);
  const guard = useUnsavedChanges(isDirty);
  const close = () => (isDirty ? guard.leave(closeTo) : onClose());
  const title = mode === "create" ? "Add Surety" : "Edit Surety";
  return (
    <Drawer
      anchor="right"
      open
      onClose={close}
      slotProps={{
        paper: {
          sx: { width: { xs: "100%", sm: DRAWER_WIDTH } },
          role: "dialog",
          "aria-modal": true,
          "aria-labelledby": "surety-drawer-title",
        },
      }}
    >
      <Box sx={{ p: 3, display: "flex", flexDirection: "column", gap: 3 }}>
        <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between" }}>
          <Typography id="surety-drawer-title" variant="h2" component="h2">
            {title}
          </Typography>
          <IconButton aria-label="Close" onClick={close} edge="end">
            <CloseIcon />
          </IconButton>
        </Box>
        {mode === "create" ? (
          <SuretyForm onSaved={onClose} onDirtyChange={setIsDirty} />
        ) : isLoading ? (
          <PageSpinner label="Loading surety..." />
        ) : !surety ? (
          <Alert severity="error">Surety not found.</Alert>
        ) : (
          <SuretyForm key={surety.id} surety={surety} onSaved={onClose} onDirtyChange={setIsDirty} />
        )}
      </Box>
      {guard.prompt}
    </Drawer>
  );
}
