import { useRef } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import CopyIcon from "@mui/icons-material/ContentCopy";
import type { WebhookCreated } from "../../../../shared/schemas/webhooks.ts";
import { useNotify } from "../../../lib/notify.ts";

/**
 * The new endpoint's signing secret, shown this once: 'Copy', what it is for (the
 * webhook-signature header of Standard Webhooks; a Slack or Teams channel needs none), and a
 * warning that it will not be shown again. Closing forgets it.
 */
export function WebhookSecretDialog({
  created,
  onClose,
}: {
  created: WebhookCreated | null;
  onClose: () => void;
}) {
  const notify = useNotify();
  const inputRef = useRef<HTMLInputElement>(null);
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.secret);
      notify("Signing secret copied.", "success");
    } catch {
      // No clipboard access (an insecure origin, or refused): select it for Ctrl+C instead.
      inputRef.current?.select();
      notify("Press Ctrl+C (⌘C) to copy the selected secret.", "info");
    }
  };
  const isChat = !!created && created.webhook.format !== "standard";
  const chat = created?.webhook.format === "slack" ? "Slack" : "Microsoft Teams";
  return (
    <Dialog open={!!created} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="webhook-secret-title">
      <DialogTitle id="webhook-secret-title">Webhook added</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 2 }}>
          {isChat ? (
            <>
              {chat} does not need this secret: the messages go to the channel as they are. Keep it in case
              you later point this webhook at your own system.
            </>
          ) : (
            <>
              Your receiver uses it to verify the <code>webhook-signature</code> header of each request
              (Standard Webhooks), so it knows the request came from Permitrack.
            </>
          )}
        </Typography>
        <Box
          sx={{
            display: "flex",
            gap: 1,
            alignItems: "flex-start",
            flexDirection: { xs: "column", sm: "row" },
          }}
        >
          <TextField
            label="Signing secret"
            value={created?.secret ?? ""}
            fullWidth
            size="small"
            inputRef={inputRef}
            onFocus={(e) => e.target.select()}
            slotProps={{
              htmlInput: { readOnly: true, spellCheck: false, "data-testid": "new-webhook-secret" },
            }}
          />
          <Button variant="contained" startIcon={<CopyIcon />} onClick={copy} sx={{ flexShrink: 0 }}>
            Copy
          </Button>
        </Box>
        <Alert severity="warning" sx={{ mt: 2 }}>
          Copy it now: it won&apos;t be shown again. Keep it secret; anyone who has it can sign requests as
          Permitrack. If it is lost, delete the webhook and add it again.
        </Alert>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Done</Button>
      </DialogActions>
    </Dialog>
  );
}
