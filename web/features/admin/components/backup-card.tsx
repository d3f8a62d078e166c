import Alert from "@mui/material/Alert";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import BackupIcon from "@mui/icons-material/BackupOutlined";
import type { BackupStatus } from "../../../../shared/schemas/backups.ts";
import { DetailCard, EmptyState, FieldGrid, PendingCard } from "../../../components/detail-card.tsx";
import { formatBytes, formatMoment } from "../../../lib/format.ts";
import { useLastBackup } from "../api/last-backup.ts";

const RESULT: Record<
  NonNullable<BackupStatus["last"]>["status"],
  { label: string; color: "success" | "error" | "info" }
> = {
  succeeded: { label: "Succeeded", color: "success" },
  failed: { label: "Failed", color: "error" },
  running: { label: "In progress", color: "info" },
};

/**
 * The Admin Dashboard's 'Backups' card (issue 26): the last backup's time, size and result, nightly
 * or taken by hand, for the super-admin (the backups hold every company's data).
 */
export function BackupCard() {
  const status = useLastBackup({ enabled: true });
  if (!status.data) return <PendingCard title="Backups" icon={<BackupIcon />} error={status.error} />;
  const { nightly, last } = status.data;
  const result = last ? RESULT[last.status] : null;
  return (
    <DetailCard title="Backups" icon={<BackupIcon />}>
      {last && result ? (
        <FieldGrid
          items={[
            { label: "Last backup", value: formatMoment(last.startedAt) },
            { label: "Size", value: last.sizeBytes === null ? null : formatBytes(last.sizeBytes) },
            {
              label: "Result",
              value: <Chip size="small" label={result.label} color={result.color} variant="outlined" />,
            },
            ...(last.location ? [{ label: "Folder", value: last.location, wide: true }] : []),
          ]}
        />
      ) : (
        <EmptyState>No backup has been taken yet.</EmptyState>
      )}
      {last?.status === "failed" && last.error ? (
        <Alert severity="error" sx={{ mt: 2, overflowWrap: "anywhere" }}>
          {last.error}
        </Alert>
      ) : null}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        {nightly
          ? "A backup is taken every night; the super-admins are e-mailed when one fails."
          : "Nightly backups are off: set BACKUP_DIR on the server (see docs/OPERATIONS.md)."}
      </Typography>
    </DetailCard>
  );
}
