import CloseIcon from "@mui/icons-material/Close";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Snackbar from "@mui/material/Snackbar";
import type { Notification } from "../lib/notify.ts";

/** The snackbar itself; loaded on the first notification (see NotificationsHost). */
export default function NotificationSnackbar({
  notification,
  open,
  onClose,
  onExited,
}: {
  notification: Notification;
  open: boolean;
  onClose: () => void;
  onExited: () => void;
}) {
  return (
    <Snackbar
      open={open}
      // A message with an action (Undo) stays longer: time to read it and change one's mind.
      autoHideDuration={notification.severity === "error" || notification.action ? 8000 : 5000}
      onClose={(_event, reason) => {
        if (reason !== "clickaway") onClose();
      }}
      anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
      slotProps={{ transition: { onExited } }}
    >
      <Alert
        onClose={onClose}
        severity={notification.severity}
        variant="filled"
        sx={{ width: "100%", alignItems: "center" }}
        action={
          notification.action ? (
            <>
              <Button
                color="inherit"
                size="small"
                onClick={() => {
                  notification.action!.onClick();
                  onClose();
                }}
                sx={{ fontWeight: 700 }}
              >
                {notification.action.label}
              </Button>
              <IconButton color="inherit" size="small" aria-label="Close" onClick={onClose}>
                <CloseIcon fontSize="small" />
              </IconButton>
            </>
          ) : undefined
        }
      >
        {notification.message}
      </Alert>
    </Snackbar>
  );
}
