import { useRef, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import CopyIcon from "@mui/icons-material/ContentCopy";
import { errorMessage } from "../../../lib/api.ts";
import { useNotify } from "../../../lib/notify.ts";
import { useCalendarFeed, useCreateCalendarFeed, useRevokeCalendarFeed } from "../api/calendar-token.ts";

/**
 * The user's private calendar feed (iCalendar): create it, copy its link into Outlook, Google or
 * Apple Calendar, rotate it (the old link stops working) or revoke it. The server keeps only a
 * hash of the secret, so the link can be shown only right after it is made.
 */
export function CalendarFeedDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const feed = useCalendarFeed(open);
  const create = useCreateCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  const notify = useNotify();
  const [url, setUrl] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const isBusy = create.isPending || revoke.isPending;
  const isActive = !!feed.data?.active;
  const failure = create.error ?? revoke.error;

  const close = () => {
    setUrl(null); // the secret is not kept around once the dialog is closed
    create.reset();
    revoke.reset();
    onClose();
  };
  // The new link appearing in the dialog is the feedback; a snackbar would queue ahead of "Link copied."
  const makeLink = () => create.mutate(undefined, { onSuccess: (r) => setUrl(r.url) });
  const revokeLink = () => revoke.mutate(undefined, { onSuccess: () => setUrl(null) });
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      notify("Link copied.", "success");
    } catch {
      // No clipboard access (an insecure origin, or refused): select it for Ctrl+C instead.
      inputRef.current?.select();
      notify("Press Ctrl+C (⌘C) to copy the selected link.", "info");
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="calendar-feed-title">
      <DialogTitle id="calendar-feed-title">Calendar feed</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 2 }}>
          Subscribe to the expiration dates of the permits and bonds you can see, in Outlook, Google Calendar
          or Apple Calendar. Alerts follow your company&apos;s reminder settings.
        </Typography>
        {feed.isPending ? (
          <Box sx={{ display: "flex", justifyContent: "center", py: 2 }}>
            <CircularProgress aria-label="Loading calendar feed..." size={28} />
          </Box>
        ) : feed.isError ? (
          <Alert severity="error">{errorMessage(feed.error)}</Alert>
        ) : url ? (
          <>
            <Box
              sx={{
                display: "flex",
                gap: 1,
                alignItems: "flex-start",
                flexDirection: { xs: "column", sm: "row" },
              }}
            >
              <TextField
                label="Calendar feed URL"
                value={url}
                fullWidth
                size="small"
                inputRef={inputRef}
                onFocus={(e) => e.target.select()}
                slotProps={{ htmlInput: { readOnly: true, spellCheck: false } }}
              />
              <Button
                variant="contained"
                startIcon={<CopyIcon />}
                onClick={copy}
                sx={{ flexShrink: 0, whiteSpace: "nowrap" }}
              >
                Copy link
              </Button>
            </Box>
            <Alert severity="warning" sx={{ mt: 2 }}>
              Keep this link private: anyone who has it can see these dates. It is shown only now; to see a
              link again, create a new one.
            </Alert>
          </>
        ) : isActive ? (
          <Alert severity="info">
            Your calendar feed is active. For your security its link is shown only once, when it is created.
            Create a new link to copy it again; the current one then stops working.
          </Alert>
        ) : (
          <Alert severity="info">You have no calendar feed yet. Create a link to subscribe to it.</Alert>
        )}
        {failure ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessage(failure)}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ flexWrap: "wrap", gap: 1, px: 3, pb: 2 }}>
        {isActive ? (
          <>
            <Button color="error" onClick={revokeLink} disabled={isBusy}>
              {revoke.isPending ? "Revoking..." : "Revoke"}
            </Button>
            <Button onClick={makeLink} disabled={isBusy}>
              {create.isPending ? "Creating..." : "Rotate link"}
            </Button>
          </>
        ) : (
          <Button variant="contained" onClick={makeLink} disabled={isBusy || feed.isPending || feed.isError}>
            {create.isPending ? "Creating..." : "Create link"}
          </Button>
        )}
        <Button onClick={close}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
