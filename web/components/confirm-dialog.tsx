import type { ReactNode } from "react";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";

/**
 * A yes/no question before a destructive action (the spec's confirmations). The confirm button
 * is disabled while the action runs; the dialog stays open until the caller closes it, so a
 * failure can be shown in `error` without losing the question.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  details,
  confirmLabel = "Delete",
  isBusy = false,
  confirmDisabled = false,
  error,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  /** The question itself, e.g. the spec's 'Are you sure you want to delete this project?'. */
  message: ReactNode;
  /** What else happens, e.g. the permits deleted with a project. */
  details?: ReactNode;
  confirmLabel?: string;
  isBusy?: boolean;
  /** The action cannot succeed (the details say why). */
  confirmDisabled?: boolean;
  error?: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={isBusy ? undefined : onClose}
      aria-labelledby="confirm-dialog-title"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id="confirm-dialog-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{message}</DialogContentText>
        {details ? <DialogContentText sx={{ mt: 1 }}>{details}</DialogContentText> : null}
        {error ? (
          <DialogContentText role="alert" color="error" sx={{ mt: 1 }}>
            {error}
          </DialogContentText>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isBusy}>
          Cancel
        </Button>
        <Button onClick={onConfirm} color="error" variant="contained" disabled={isBusy || confirmDisabled}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
