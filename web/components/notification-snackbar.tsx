import Alert from "@mui/material/Alert";
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
      autoHideDuration={notification.severity === "error" ? 8000 : 5000}
      onClose={(_event, reason) => {
        if (reason !== "clickaway") onClose();
      }}
      anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
      slotProps={{ transition: { onExited } }}
    >
      <Alert onClose={onClose} severity={notification.severity} variant="filled" sx={{ width: "100%" }}>
        {notification.message}
      </Alert>
    </Snackbar>
  );
}
