import Alert from "@mui/material/Alert";

/** Shown in place of a screen the user's role may not use (the server refuses it anyway). */
export function AccessDenied({ message = "Access denied." }: { message?: string }) {
  return (
    <Alert severity="error" sx={{ mt: 2 }}>
      {message}
    </Alert>
  );
}
