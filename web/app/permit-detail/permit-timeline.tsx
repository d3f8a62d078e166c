import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import EventOutlined from "@mui/icons-material/EventOutlined";
import { EXPIRING_SOON_DAYS } from "../../../shared/domain/constants.ts";
import { daysBetween } from "../../../shared/domain/dates.ts";
import { isClosedRecord, recordUrgency } from "../../../shared/domain/record-status.ts";
import type { PermitDetail } from "../../../shared/schemas/permits.ts";
import { useCompanyToday } from "../../lib/session.tsx";
import { DetailCard } from "../../components/detail-card.tsx";
import { formatDay } from "../../lib/format.ts";

function renewByHint(renewBy: string, today: string): string {
  const left = daysBetween(today, renewBy);
  if (left === 0) return "Today";
  if (left > 0) return `In ${left} day${left === 1 ? "" : "s"}`;
  return `Passed ${-left} day${left === -1 ? "" : "s"} ago`;
}

/** "Expires in 26 days"; once passed, a permit "Expired 3 days ago", a bond (still open) "3 days past expiry". */
function expiryHint(expiration: string, today: string, isBond: boolean): string {
  const left = daysBetween(today, expiration);
  if (left === 0) return "Expires today";
  if (left > 0) return `Expires in ${left} day${left === 1 ? "" : "s"}`;
  const days = `${-left} day${left === -1 ? "" : "s"}`;
  return isBond ? `${days} past expiry` : `Expired ${days} ago`;
}

/**
 * The permit's dates in order, as a horizontal track on wide screens and a vertical one on phones.
 * A closed permit or bond (a close date, a released or cancelled bond) counts down to nothing: its
 * dates show without hints or warning colours (issue 25).
 */
export function PermitTimeline({ permit }: { permit: PermitDetail }) {
  const today = useCompanyToday();
  const isClosed = isClosedRecord(permit);
  const expiry = recordUrgency(permit, today);
  const expiryColor =
    expiry === "expired" ? "error.main" : expiry === "expiring" ? "warning.main" : "primary.main";
  const steps = [
    { label: "Start Date", date: permit.start_date },
    { label: "Application Date", date: permit.permit_application_date },
    { label: "Issue Date", date: permit.issue_date },
    // The agency's renewal deadline (issue 11), only when a lead time is set.
    ...(permit.renew_by_date
      ? [
          {
            label: "Renew By",
            date: permit.renew_by_date,
            // Red once passed, amber within 30 days, otherwise like any date.
            color: isClosed
              ? undefined
              : daysBetween(today, permit.renew_by_date) < 0
                ? "error.main"
                : daysBetween(today, permit.renew_by_date) <= EXPIRING_SOON_DAYS
                  ? "warning.main"
                  : undefined,
            hint: isClosed ? null : renewByHint(permit.renew_by_date, today),
          },
        ]
      : []),
    {
      label: "Expiration Date",
      date: permit.expiration_date,
      color: expiryColor,
      hint:
        permit.expiration_date && !isClosed
          ? expiryHint(permit.expiration_date, today, permit.record_type === "bond")
          : null,
    },
    { label: "Close Date", date: permit.close_date },
  ];
  return (
    <DetailCard title="Timeline" icon={<EventOutlined />}>
      <Box
        component="ol"
        sx={{
          listStyle: "none",
          m: 0,
          p: 0,
          display: "grid",
          gridTemplateColumns: { xs: "1fr", sm: `repeat(${steps.length}, minmax(0, 1fr))` },
          gap: { xs: 0, sm: 1 },
        }}
      >
        {steps.map((step, i) => {
          const color = step.date ? (step.color ?? "primary.main") : "action.disabled";
          return (
            <Box
              component="li"
              key={step.label}
              sx={{
                position: "relative",
                display: "flex",
                flexDirection: { xs: "row", sm: "column" },
                alignItems: { xs: "flex-start", sm: "flex-start" },
                gap: { xs: 1.5, sm: 1 },
                pb: { xs: i < steps.length - 1 ? 2 : 0, sm: 0 },
                // the connecting line to the next step
                "&::after":
                  i < steps.length - 1
                    ? {
                        content: '""',
                        position: "absolute",
                        bgcolor: "divider",
                        left: { xs: 6, sm: 20 },
                        top: { xs: 18, sm: 6 },
                        width: { xs: 2, sm: "calc(100% - 16px)" },
                        height: { xs: "calc(100% - 16px)", sm: 2 },
                      }
                    : undefined,
              }}
            >
              <Box
                aria-hidden
                sx={{
                  width: 14,
                  height: 14,
                  mt: { xs: 0.5, sm: 0 },
                  borderRadius: "50%",
                  flexShrink: 0,
                  border: 2,
                  borderColor: color,
                  bgcolor: step.date ? color : "background.paper",
                }}
              />
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="caption" sx={{ color: "text.secondary", display: "block" }}>
                  {step.label}
                </Typography>
                <Typography
                  variant="body2"
                  sx={{ fontWeight: 600, color: step.date ? "text.primary" : "text.secondary" }}
                >
                  {formatDay(step.date) ?? "—"}
                </Typography>
                {step.hint ? (
                  <Typography
                    variant="caption"
                    sx={{ color: step.color ?? "text.secondary", fontWeight: 600 }}
                  >
                    {step.hint}
                  </Typography>
                ) : null}
              </Box>
            </Box>
          );
        })}
      </Box>
    </DetailCard>
  );
}
