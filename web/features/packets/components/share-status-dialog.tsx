import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { STATUS_LINK_DEFAULT_DAYS, STATUS_LINK_MAX_DAYS } from "../../../../shared/schemas/compliance.ts";
import { errorMessage } from "../../../lib/api.ts";
import {
  useCreateStatusLink,
  useRevokeStatusLink,
  useStatusLinks,
  type PacketOwner,
} from "../api/packets.ts";

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "Never";
const STATE_WORDS = { active: "Active", expired: "Expired", revoked: "Revoked" } as const;

/** 'Share Status': a read-only link (expiry, 'Create Link', 'Copy'), and the links made so far. */
export function ShareStatusDialog({
  owner,
  open,
  onClose,
}: {
  owner: PacketOwner;
  open: boolean;
  onClose: () => void;
}) {
  const [days, setDays] = useState(String(STATUS_LINK_DEFAULT_DAYS));
  const [created, setCreated] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const links = useStatusLinks(owner, open);
  const create = useCreateStatusLink(owner);
  const revoke = useRevokeStatusLink(owner);
  const close = () => {
    setCreated(null);
    setCopied(false);
    create.reset();
    onClose();
  };
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="md" aria-labelledby="share-status-title">
      <DialogTitle id="share-status-title">Share Status: {owner.name}</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 2 }} color="text.secondary">
          Anyone with the link sees this {owner.kind === "projects" ? "project's" : "client's"} permits and
          bonds (status, dates, days left) and can download the compliance packet, without signing in, until
          it expires or is revoked. Comments, attachments, e-mails, collateral and surety limits are never
          shown.
        </Typography>
        <Box sx={{ display: "flex", gap: 1.5, alignItems: "flex-start", flexWrap: "wrap", mb: 2 }}>
          <TextField
            label="Expires in (days)"
            type="number"
            size="small"
            value={days}
            onChange={(e) => setDays(e.target.value)}
            slotProps={{ htmlInput: { min: 1, max: STATUS_LINK_MAX_DAYS } }}
            helperText={`1 to ${STATUS_LINK_MAX_DAYS} days`}
            sx={{ width: 180 }}
          />
          <Button
            variant="contained"
            disabled={create.isPending}
            onClick={() => create.mutate(Number(days), { onSuccess: (r) => setCreated(r.url) })}
          >
            Create Link
          </Button>
        </Box>
        {create.isError ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {errorMessage(create.error)}
          </Alert>
        ) : null}
        {created ? (
          <Alert
            severity="success"
            sx={{ mb: 2, "& .MuiAlert-message": { flex: 1, minWidth: 0 } }}
            action={<Button onClick={() => void copy()}>{copied ? "Copied" : "Copy"}</Button>}
          >
            <Typography variant="body2" sx={{ mb: 0.5 }}>
              The link is shown only now. Copy it and send it to whoever asked:
            </Typography>
            <TextField
              value={created}
              size="small"
              fullWidth
              slotProps={{
                htmlInput: {
                  "aria-label": "Status link",
                  readOnly: true,
                  onFocus: (e: React.FocusEvent<HTMLInputElement>) => e.target.select(),
                },
              }}
            />
          </Alert>
        ) : null}
        <Typography variant="h4" component="h3" sx={{ fontSize: "1rem", fontWeight: 600, mt: 1, mb: 1 }}>
          Links
        </Typography>
        {links.isError ? <Alert severity="error">{errorMessage(links.error)}</Alert> : null}
        {links.data && !links.data.links.length ? (
          <Typography color="text.secondary">No links yet.</Typography>
        ) : null}
        {links.data?.links.length ? (
          <Box sx={{ overflowX: "auto" }}>
            <Table size="small" aria-label="Status links">
              <TableHead>
                <TableRow>
                  <TableCell>Created</TableCell>
                  <TableCell>By</TableCell>
                  <TableCell>Expires</TableCell>
                  <TableCell>State</TableCell>
                  <TableCell align="right">Views</TableCell>
                  <TableCell>Last viewed</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {links.data.links.map((l) => (
                  <TableRow key={l.id}>
                    <TableCell>{when(l.created_at)}</TableCell>
                    <TableCell>{l.created_by}</TableCell>
                    <TableCell>{when(l.expires_at)}</TableCell>
                    <TableCell>{STATE_WORDS[l.state]}</TableCell>
                    <TableCell align="right">{l.view_count}</TableCell>
                    <TableCell>{when(l.last_viewed_at)}</TableCell>
                    <TableCell align="right">
                      {l.state === "active" ? (
                        <Button
                          size="small"
                          color="error"
                          disabled={revoke.isPending}
                          onClick={() => revoke.mutate(l.id)}
                          aria-label={`Revoke link created ${when(l.created_at)}`}
                        >
                          Revoke
                        </Button>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
