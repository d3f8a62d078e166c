import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import { ROLE_LABELS } from "../../../../shared/domain/roles.ts";
import type { ApiKey } from "../../../../shared/schemas/api-keys.ts";
import { RecordCard, RecordCards, useIsPhone, type RecordField } from "../../../components/record-cards.tsx";
import { formatDayOf, formatDayOrDash, formatMoment } from "../../../lib/format.ts";

const STATUS = {
  active: { label: "Active", color: "success" },
  expired: { label: "Expired", color: "warning" },
  revoked: { label: "Revoked", color: "default" },
} as const;

const status = (k: ApiKey) => (
  <Chip size="small" variant="outlined" label={STATUS[k.status].label} color={STATUS[k.status].color} />
);
const prefix = (k: ApiKey) => <code style={{ whiteSpace: "nowrap" }}>{k.prefix}…</code>;
const lastUsed = (k: ApiKey) => (k.last_used_at ? formatMoment(k.last_used_at) : "Never");

/**
 * The API Keys list (issue 30): Name, Role, the key's first characters, Created, Expires, Last
 * Used and the status; 'Revoke' from the row's `can`. Cards on a phone.
 */
export function ApiKeysTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (k: ApiKey) => void }) {
  const isPhone = useIsPhone();
  const revoke = (k: ApiKey) =>
    k.can.revoke ? (
      <Button size="small" color="error" onClick={() => onRevoke(k)} aria-label={`Revoke ${k.name}`}>
        Revoke
      </Button>
    ) : null;
  if (isPhone) {
    return (
      <RecordCards label="API keys">
        {keys.map((k) => {
          const fields: RecordField[] = [
            { label: "Role", value: ROLE_LABELS[k.role] },
            { label: "Key", value: prefix(k) },
            { label: "Created", value: formatDayOf(k.created_at) },
            { label: "Expires", value: formatDayOrDash(k.expires_on) },
            { label: "Last Used", value: lastUsed(k) },
          ];
          return (
            <RecordCard
              key={k.id}
              title={k.name}
              subtitle={status(k)}
              fields={fields}
              actions={revoke(k)}
              isMuted={k.status !== "active"}
            />
          );
        })}
      </RecordCards>
    );
  }
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="API keys" sx={{ "& th": { whiteSpace: "nowrap" } }}>
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Role</TableCell>
            <TableCell>Key</TableCell>
            <TableCell>Created</TableCell>
            <TableCell>Expires</TableCell>
            <TableCell>Last Used</TableCell>
            <TableCell>Status</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {keys.map((k) => (
            <TableRow key={k.id} hover>
              <TableCell sx={{ fontWeight: 500, overflowWrap: "anywhere", minWidth: 140 }}>
                {k.name}
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{ROLE_LABELS[k.role]}</TableCell>
              <TableCell>{prefix(k)}</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDayOf(k.created_at)}</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDayOrDash(k.expires_on)}</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{lastUsed(k)}</TableCell>
              <TableCell>{status(k)}</TableCell>
              <TableCell align="right">{revoke(k)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
