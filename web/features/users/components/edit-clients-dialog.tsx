import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import Typography from "@mui/material/Typography";
import type { User } from "../../../../shared/schemas/users.ts";
import { errorMessage } from "../../../lib/api.ts";
import { useClients } from "../../clients/index.ts";
import { useSetUserClients } from "../api/user-clients.ts";

/**
 * 'Edit Clients' (spec section 2): which of its company's clients a client-user may see. Only
 * those clients' permits reach the user, on every screen and in every export.
 */
export function EditClientsDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  return (
    <Dialog open={!!user} onClose={onClose} aria-labelledby="edit-clients-title" maxWidth="xs" fullWidth>
      {/* Mounted per user, so the choice starts from that user's saved clients. */}
      {user ? <EditClientsContent key={user.id} user={user} onClose={onClose} /> : null}
    </Dialog>
  );
}

function EditClientsContent({ user, onClose }: { user: User; onClose: () => void }) {
  const clients = useClients(user.companyId, { enabled: !!user.companyId });
  const save = useSetUserClients();
  const [selected, setSelected] = useState(() => new Set(user.clients.map((c) => c.id)));
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const name = `${user.firstName} ${user.lastName}`.trim() || user.email;

  return (
    <>
      <DialogTitle id="edit-clients-title">Edit Clients</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {name} sees only the permits of the clients chosen here.
        </DialogContentText>
        {clients.isPending ? (
          <Box sx={{ display: "flex", justifyContent: "center", py: 3 }}>
            <CircularProgress aria-label="Loading clients..." />
          </Box>
        ) : clients.isError ? (
          <Alert severity="error">{errorMessage(clients.error)}</Alert>
        ) : clients.data.clients.length === 0 ? (
          <Typography color="text.secondary">No clients found</Typography>
        ) : (
          <FormGroup aria-label="Visible clients">
            {clients.data.clients.map((client) => (
              <FormControlLabel
                key={client.id}
                control={<Checkbox checked={selected.has(client.id)} onChange={() => toggle(client.id)} />}
                label={client.name}
              />
            ))}
          </FormGroup>
        )}
        {save.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {`Error saving client filter: ${errorMessage(save.error)}`}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Typography variant="body2" color="text.secondary" sx={{ mr: "auto", pl: 2 }}>
          {selected.size} selected
        </Typography>
        <Button onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          disabled={save.isPending || !clients.isSuccess}
          onClick={() => save.mutate({ id: user.id, clientIds: [...selected] }, { onSuccess: onClose })}
        >
          {save.isPending ? "Saving..." : "Save"}
        </Button>
      </DialogActions>
    </>
  );
}
