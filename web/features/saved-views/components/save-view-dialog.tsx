import { useState, type FormEvent } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import { SAVED_VIEW_NAME_MAX, type SavedViewParams } from "../../../../shared/domain/permit-list.ts";
import { errorMessage, isApiError } from "../../../lib/api.ts";
import { useCreateSavedView } from "../api/saved-views.ts";

/** 'Save view' of the views bar (saved-views-bar.tsx), a chunk of its own fetched on first use. */
export default function SaveViewDialog({
  open,
  params,
  onClose,
}: {
  open: boolean;
  /** The view shown now, as saved. */
  params: SavedViewParams;
  onClose: () => void;
}) {
  const create = useCreateSavedView();
  const [name, setName] = useState("");
  const close = () => {
    setName("");
    create.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, params }, { onSuccess: close });
  };
  const fieldError = create.isError && isApiError(create.error) ? (create.error.fields?.name ?? null) : null;
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs">
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle>Save view</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Keeps the current filters, sort and grouping under a name, listed beside the filters for you
            alone.
          </DialogContentText>
          <TextField
            autoFocus
            fullWidth
            required
            label="View name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={!!fieldError}
            helperText={fieldError ?? " "}
            slotProps={{ htmlInput: { maxLength: SAVED_VIEW_NAME_MAX } }}
          />
          {create.isError && !fieldError ? (
            <Alert severity="error">{errorMessage(create.error)}</Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={create.isPending || !name.trim()}>
            Save
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
