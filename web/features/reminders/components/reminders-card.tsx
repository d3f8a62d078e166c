import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import NotificationsNoneOutlined from "@mui/icons-material/NotificationsNoneOutlined";
import { errorMessage } from "../../../lib/api.ts";
import {
  DELIVERY_STATUS_LABELS,
  deliveryLabel,
  type DeliveryStatus,
  type PermitReminder,
} from "../../../../shared/schemas/reminders.ts";
import { usePermitReminders } from "../api/get-reminders.ts";
import { DetailCard, EmptyState } from "../../../components/detail-card.tsx";
import { formatMoment } from "../../../lib/format.ts";
import { RENEWAL_PENDING_LABEL } from "../../../../shared/domain/request-reminders.ts";

const STATUS_COLORS: Record<DeliveryStatus, "success" | "error" | "warning" | "default"> = {
  sent: "success",
  failed: "error",
  pending: "warning",
  sending: "warning",
  cancelled: "default",
};

function DeliveryRow({ d }: { d: PermitReminder }) {
  return (
    <Box component="li" sx={{ p: 1.25, border: 1, borderColor: "divider", borderRadius: 2 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, mb: 0.25 }}>
        <Typography variant="body2" sx={{ fontWeight: 650, flex: 1 }}>
          {deliveryLabel(d)}
        </Typography>
        <Chip
          label={DELIVERY_STATUS_LABELS[d.status]}
          color={STATUS_COLORS[d.status]}
          size="small"
          variant="outlined"
        />
      </Box>
      <Typography variant="body2" sx={{ overflowWrap: "anywhere" }}>
        To {d.recipientEmail}
      </Typography>
      <Typography variant="caption" sx={{ color: "text.secondary" }}>
        {d.sentAt ? `Sent ${formatMoment(d.sentAt)}` : `Queued ${formatMoment(d.createdAt)}`}
      </Typography>
      {d.status === "failed" && d.lastError ? (
        <Typography
          variant="caption"
          sx={{ display: "block", color: "error.main", overflowWrap: "anywhere" }}
        >
          {d.lastError}
        </Typography>
      ) : null}
    </Box>
  );
}

/** Which reminder e-mails went out for this permit, when, to whom, and whether they were sent. */
export function RemindersCard({ permitId }: { permitId: string }) {
  const reminders = usePermitReminders(permitId);
  const list = reminders.data?.deliveries ?? [];
  const pausedUntil = reminders.data?.renewalPendingUntil ?? null;
  return (
    <DetailCard title="Reminders" icon={<NotificationsNoneOutlined />}>
      {pausedUntil ? (
        // A document request's submission awaits review (issue 27): the sweep skips this permit meanwhile.
        <Alert severity="info" sx={{ mb: 1 }}>
          <strong>{RENEWAL_PENDING_LABEL}</strong>: a submitted document awaits review. Reminders are paused
          until {formatMoment(pausedUntil)}.
        </Alert>
      ) : null}
      {reminders.isPending ? (
        <Skeleton variant="rounded" height={56} role="progressbar" aria-label="Loading reminders" />
      ) : reminders.isError ? (
        <Alert severity="error">{errorMessage(reminders.error)}</Alert>
      ) : list.length === 0 ? (
        <EmptyState>No reminders sent yet.</EmptyState>
      ) : (
        <Box
          component="ul"
          aria-label="Reminders"
          sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 1 }}
        >
          {list.map((d) => (
            <DeliveryRow key={d.id} d={d} />
          ))}
        </Box>
      )}
    </DetailCard>
  );
}
