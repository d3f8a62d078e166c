import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import CloseIcon from "@mui/icons-material/Close";
import { DRAWER_WIDTH } from "../../../../shared/domain/constants.ts";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { useUnsavedChanges } from "../../../components/unsaved-changes.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useClient } from "../api/get-client.ts";
import { ClientForm } from "./client-form.tsx";

/**
 * The right-side drawer (400 px; the whole width on a phone) holding the client form. Closing it
 * with a changed name asks first, like leaving any form (issue 14).
 */
export function ClientDrawer({
  mode,
  clientId,
  closeTo,
  onClose,
}: {
  mode: "create" | "edit";
  clientId?: string;
  /** The page closing goes to (the clients list). */
  closeTo: string;
  onClose: () => void;
}) {
  const client = useClient(mode === "edit" ? clientId : undefined);
  const [isDirty, setIsDirty] = useState(false);
  const guard = useUnsavedChanges(isDirty);
  const close = () => (isDirty ? guard.leave(closeTo) : onClose());
  const title = mode === "create" ? "New Client" : "Edit Client";
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
          "aria-labelledby": "client-drawer-title",
        },
      }}
    >
      <Box sx={{ p: 3, display: "flex", flexDirection: "column", gap: 3 }}>
        <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between" }}>
          <Typography id="client-drawer-title" variant="h2" component="h2">
            {title}
          </Typography>
          <IconButton aria-label="Close" onClick={close} edge="end">
            <CloseIcon />
          </IconButton>
        </Box>
        {mode === "create" ? (
          <ClientForm onSaved={onClose} onDirtyChange={setIsDirty} />
        ) : client.isPending ? (
          <PageSpinner label="Loading client..." />
        ) : client.isError ? (
          <Alert severity="error">{errorMessage(client.error)}</Alert>
        ) : (
          <ClientForm
            key={client.data.id}
            client={client.data}
            onSaved={onClose}
            onDirtyChange={setIsDirty}
          />
        )}
      </Box>
      {guard.prompt}
    </Drawer>
  );
}
