import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import HistoryOutlined from "@mui/icons-material/HistoryOutlined";
import { errorMessage } from "../../../lib/api.ts";
import { usePermitAudit, type AuditRow } from "../api/get-permit-audit.ts";
import { DetailCard, EmptyState } from "../../../components/detail-card.tsx";
import { InternalChip } from "../../../components/internal-chip.tsx";
import { formatMoment } from "../../../lib/format.ts";

const FIRST_PAGE = 10;

const ACTION_COLORS: Record<string, "success" | "info" | "warning" | "error" | "default"> = {
  create: "success",
  update: "info",
  comment: "default",
  upload: "success",
  archive: "warning",
  delete: "error",
};

function ActionChip({ entry }: { entry: AuditRow }) {
  return (
    <Chip
      label={entry.text.action}
      size="small"
      color={ACTION_COLORS[entry.action] ?? "default"}
      variant="outlined"
    />
  );
}

function Who({ entry }: { entry: AuditRow }) {
  return (
    <>
      {entry.userName}
      {entry.impersonatorName ? (
        <Typography component="span" variant="caption" sx={{ display: "block", color: "text.secondary" }}>
          by {entry.impersonatorName} (impersonating)
        </Typography>
      ) : null}
    </>
  );
}

/**
 * An internal entry (an internal fee, note, reason or comment: issue 25) as staff see it, marked as
 * on the cards; a client-user never gets one. 'Internal Comment' says so itself.
 */
function InternalMark({ entry }: { entry: AuditRow }) {
  const field = entry.text.field ?? "entry";
  if (!entry.internal || /^internal\b/i.test(field)) return null;
  return <InternalChip of={field.toLowerCase()} />;
}

/** A changed value: long texts (comments) wrap; an empty value is a dash. */
function Value({ value }: { value: string | null }) {
  return (
    <Box
      component="span"
      sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", color: value ? undefined : "text.secondary" }}
    >
      {value ?? "—"}
    </Box>
  );
}

/** Where an accepted value came from (issue 28): "from document site-plan.pdf, page 2". */
function Source({ entry }: { entry: AuditRow }) {
  if (!entry.source) return null;
  return (
    <Typography variant="caption" component="div" sx={{ color: "text.secondary", overflowWrap: "anywhere" }}>
      {entry.source}
    </Typography>
  );
}

function AuditTable({ entries }: { entries: AuditRow[] }) {
  return (
    <TableContainer>
      <Table size="small" aria-label="Audit trail">
        <TableHead>
          <TableRow>
            <TableCell>Date</TableCell>
            <TableCell>User</TableCell>
            <TableCell>Action</TableCell>
            <TableCell>Field</TableCell>
            <TableCell>Old Value</TableCell>
            <TableCell>New Value</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.map((e) => (
            <TableRow key={e.id} sx={{ verticalAlign: "top", "&:last-child td": { borderBottom: 0 } }}>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{formatMoment(e.timestamp)}</TableCell>
              <TableCell sx={{ minWidth: 140 }}>
                <Who entry={e} />
              </TableCell>
              <TableCell>
                <ActionChip entry={e} />
              </TableCell>
              {/* A label is a few words: kept on one line, the values take the width. */}
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                {e.text.field ?? "—"}
                <InternalMark entry={e} />
              </TableCell>
              <TableCell sx={{ width: "28%" }}>
                <Value value={e.text.oldValue} />
              </TableCell>
              <TableCell sx={{ width: "28%" }}>
                <Value value={e.text.newValue} />
                <Source entry={e} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** On a phone the six columns do not fit: one small card per entry instead. */
function AuditList({ entries }: { entries: AuditRow[] }) {
  return (
    <Box
      component="ol"
      aria-label="Audit trail"
      sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 1 }}
    >
      {entries.map((e) => (
        <Box component="li" key={e.id} sx={{ p: 1.25, border: 1, borderColor: "divider", borderRadius: 2 }}>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap", mb: 0.5 }}>
            <ActionChip entry={e} />
            {e.text.field ? (
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {e.text.field}
              </Typography>
            ) : null}
            <InternalMark entry={e} />
          </Box>
          {e.text.oldValue || e.text.newValue ? (
            <Typography variant="body2" component="div" sx={{ mb: 0.5 }}>
              {e.text.oldValue && (e.text.newValue || e.action === "update") ? (
                <>
                  <Value value={e.text.oldValue} /> → <Value value={e.text.newValue} />
                </>
              ) : (
                <Value value={e.text.newValue ?? e.text.oldValue} />
              )}
            </Typography>
          ) : null}
          <Source entry={e} />
          <Typography variant="caption" component="div" sx={{ color: "text.secondary" }}>
            <Who entry={e} /> · {formatMoment(e.timestamp)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** Every recorded change of the permit, newest first. */
export function AuditTrailCard({ permitId }: { permitId: string }) {
  const audit = usePermitAudit(permitId);
  const [showAll, setShowAll] = useState(false);
  const isPhone = useMediaQuery(useTheme().breakpoints.down("sm"));
  const entries = audit.data ?? [];
  const shown = showAll ? entries : entries.slice(0, FIRST_PAGE);
  return (
    <DetailCard title="Audit Trail" icon={<HistoryOutlined />}>
      {audit.isPending ? (
        <Skeleton variant="rounded" height={96} role="progressbar" aria-label="Loading audit trail" />
      ) : audit.isError ? (
        <Alert severity="error">{errorMessage(audit.error)}</Alert>
      ) : entries.length === 0 ? (
        <EmptyState>No audit records.</EmptyState>
      ) : (
        <>
          {isPhone ? <AuditList entries={shown} /> : <AuditTable entries={shown} />}
          {entries.length > FIRST_PAGE ? (
            <Box sx={{ textAlign: "center", mt: 1 }}>
              <Button size="small" onClick={() => setShowAll((v) => !v)}>
                {showAll ? "Show fewer" : `Show all ${entries.length} entries`}
              </Button>
            </Box>
          ) : null}
        </>
      )}
    </DetailCard>
  );
}
