import { useState } from "react";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { errorMessage } from "../../../lib/api.ts";
import { useSavePacketRecipients } from "../api/packets.ts";

/** 'Monthly Packet' (mounted when opened, so it starts from the saved list): who gets the project's compliance packet by e-mail at the start of each month. */
export function MonthlyPacketDialog({
  projectId,
  emails,
  open,
  onClose,
}: {
  projectId: string;
  emails: string[];
  open: boolean;
  onClose: () => void;
}) {
  const [text, setText] = useState(emails.join("\n"));
  const save = useSavePacketRecipients(projectId);
  const list = text
    .split(/[\s,;]+/)
    .map((e) => e.trim())
    .filter(Boolean);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="monthly-packet-title">
      <DialogTitle id="monthly-packet-title">Monthly Packet</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          These addresses get the compliance packet (PDF) by e-mail once at the start of each month. Leave it
          empty to send none.
        </Typography>
        <TextField
          label="Recipients' e-mails (one per line)"
          multiline
          minRows={3}
          fullWidth
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        {save.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessage(save.error)}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={save.isPending}
          onClick={() => save.mutate(list, { onSuccess: onClose })}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
