import { useState, type FormEvent } from "react";
import BookmarkAddOutlined from "@mui/icons-material/BookmarkAddOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import {
  BUILT_IN_VIEWS,
  SAVED_VIEW_NAME_MAX,
  type SavedViewParams,
} from "../../../../shared/domain/permit-list.ts";
import type { PermitListQuery } from "../../../../shared/schemas/permits.ts";
import { errorMessage, isApiError } from "../../../lib/api.ts";
import { useCreateSavedView, useDeleteSavedView, useSavedViews } from "../api/saved-views.ts";
import { isSameView, viewParams } from "./list-params.ts";

const toSearch = (params: SavedViewParams) => new URLSearchParams(params as Record<string, string>);

/**
 * The list's views beside its filters (issue 14): 'Expiring in 30 days' and 'Expired' for everyone,
 * then the user's own, each a click away; 'Save view' keeps the current filters under a name.
 * The view the list shows now is marked.
 */
export default function SavedViewsBar({
  query,
  onApply,
}: {
  query: PermitListQuery;
  onApply: (params: URLSearchParams) => void;
}) {
  const views = useSavedViews();
  const remove = useDeleteSavedView();
  const [isSaving, setIsSaving] = useState(false);
  const chip = (key: string, name: string, params: SavedViewParams, onDelete?: () => void) => {
    const isCurrent = isSameView(query, params);
    return (
      <Chip
        key={key}
        label={name}
        clickable
        color={isCurrent ? "primary" : "default"}
        variant={isCurrent ? "filled" : "outlined"}
        aria-pressed={isCurrent}
        onClick={() => onApply(toSearch(params))}
        onDelete={onDelete}
      />
    );
  };
  return (
    <Box
      component="section"
      aria-label="Views"
      sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1 }}
    >
      <Typography variant="body2" color="text.secondary" component="span" sx={{ fontWeight: 600 }}>
        Views
      </Typography>
      {BUILT_IN_VIEWS.map((v) => chip(v.key, v.name, v.params))}
      {(views.data ?? []).map((v) => chip(v.id, v.name, v.params, () => remove.mutate(v.id)))}
      <Button size="small" startIcon={<BookmarkAddOutlined />} onClick={() => setIsSaving(true)}>
        Save view
      </Button>
      {views.isError ? (
        <Typography variant="body2" color="error">
          {errorMessage(views.error)}
        </Typography>
      ) : null}
      <SaveViewDialog open={isSaving} query={query} onClose={() => setIsSaving(false)} />
    </Box>
  );
}

function SaveViewDialog({
  open,
  query,
  onClose,
}: {
  open: boolean;
  query: PermitListQuery;
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
    create.mutate({ name, params: viewParams(query) }, { onSuccess: close });
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
