import { useId, type ReactNode } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { errorMessage, isApiError } from "../../lib/api.ts";

/** Spans both columns of a dialog's grid. */
export const full = { gridColumn: "1 / -1" } as const;

/**
 * The frame every step dialog shares (a permit's renewal, a bond's rider, ...): a form with its
 * fields in two columns, the server's message when it is not about one field, Cancel and the save
 * button (busy while saving). Full screen on a phone.
 */
export function StepDialog({
  open,
  title,
  intro,
  submitLabel,
  cancelLabel = "Cancel",
  isBusy,
  error,
  onSubmit,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  intro?: ReactNode;
  submitLabel: string;
  /** The button that closes without saving; "Keep Bond" where "Cancel" would read as the step itself. */
  cancelLabel?: string;
  isBusy: boolean;
  error: unknown;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const isPhone = useMediaQuery(useTheme().breakpoints.down("sm"));
  const titleId = useId();
  const showError = !!error && !(isApiError(error) && error.fields && Object.keys(error.fields).length);
  return (
    <Dialog
      open={open}
      onClose={isBusy ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      fullScreen={isPhone}
    >
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
        sx={{ display: "flex", flexDirection: "column", minHeight: isPhone ? "100%" : undefined }}
      >
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent sx={{ flex: isPhone ? 1 : undefined }}>
          {intro ? (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {intro}
            </Typography>
          ) : null}
          <Box
            sx={{
              display: "grid",
              gridTemplateColumns: { xs: "1fr", sm: "repeat(2, minmax(0, 1fr))" },
              gap: 2,
              pt: 1,
            }}
          >
            {children}
          </Box>
          {showError ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {errorMessage(error)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={isBusy}>
            {cancelLabel}
          </Button>
          <Button type="submit" variant="contained" disabled={isBusy}>
            {isBusy ? "Saving..." : submitLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
