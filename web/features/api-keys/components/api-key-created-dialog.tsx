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
import type { ApiKeyCreated } from "../../../../shared/schemas/api-keys.ts";
import { useNotify } from "../../../lib/notify.ts";

/**
 * The new key, shown this once (the server keeps only its hash): 'Copy', and a warning that it
 * will not be shown again. Closing forgets it.
 */
export function ApiKeyCreatedDialog({
  created,
  onClose,
}: {
  created: ApiKeyCreated | null;
  onClose: () => void;
}) {
  const notify = useNotify();
  const inputRef = useRef<HTMLInputElement>(null);
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      notify("API key copied.", "success");
    } catch {
      // No clipboard access (an insecure origin, or refused): select it for Ctrl+C instead.
      inputRef.current?.select();
      notify("Press Ctrl+C (⌘C) to copy the selected key.", "info");
    }
  };
  return (
    <Dialog
      open={!!created}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="api-key-created-title"
    >
      <DialogTitle id="api-key-created-title">API key created</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 2 }}>
          Send it as <code>Authorization: Bearer &lt;key&gt;</code> with each request to the API.
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
            label={created ? `API key '${created.api_key.name}'` : "API key"}
            value={created?.key ?? ""}
            fullWidth
            size="small"
            inputRef={inputRef}
            onFocus={(e) => e.target.select()}
            slotProps={{ htmlInput: { readOnly: true, spellCheck: false, "data-testid": "new-api-key" } }}
          />
          <Button variant="contained" startIcon={<CopyIcon />} onClick={copy} sx={{ flexShrink: 0 }}>
            Copy
          </Button>
        </Box>
        <Alert severity="warning" sx={{ mt: 2 }}>
          Copy it now: it won&apos;t be shown again. Keep it secret; anyone who has it can use the API as this
          key&apos;s role. If it is lost, revoke it and create a new one.
        </Alert>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Done</Button>
      </DialogActions>
    </Dialog>
  );
}
