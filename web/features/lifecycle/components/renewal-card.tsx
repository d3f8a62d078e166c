import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import Autorenew from "@mui/icons-material/Autorenew";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutlineOutlined";
import LockOutlined from "@mui/icons-material/LockOutlined";
import MoreTime from "@mui/icons-material/MoreTime";
import PlaylistAddCheck from "@mui/icons-material/PlaylistAddCheck";
import { daysBetween } from "../../../../shared/domain/dates.ts";
import { EXPIRY_RULE_LABELS } from "../../../../shared/domain/lifecycle.ts";
import type { Lifecycle } from "../../../../shared/schemas/lifecycle.ts";
import type { PermitDetail } from "../../../../shared/schemas/permits.ts";
import { DetailCard, FieldGrid, PendingCard } from "../../../components/detail-card.tsx";
import { formatDay } from "../../../lib/format.ts";
import { useAcknowledgePermit } from "../api/lifecycle-steps.ts";
import { acknowledgedLabel } from "./lifecycle-cells.tsx";
import { CloseDialog } from "./close-dialog.tsx";
import { ExtendDialog } from "./extend-dialog.tsx";
import { RenewDialog } from "./renew-dialog.tsx";

/** How the expiry is set, in words: "Fixed date" or "180 days after last passed inspection". */
function expiryRuleText(rule: Lifecycle["expiry_rule"], days: number | null): string {
  return rule === "after_inspection" && days
    ? `${days} days after last passed inspection`
    : EXPIRY_RULE_LABELS[rule];
}

function renewByHint(renewBy: string, today: string): { text: string; tone: "error" | "warning" | null } {
  const left = daysBetween(today, renewBy);
  if (left < 0) return { text: `Passed ${-left} day${left === -1 ? "" : "s"} ago`, tone: "error" };
  if (left === 0) return { text: "Today", tone: "warning" };
  return { text: `In ${left} day${left === 1 ? "" : "s"}`, tone: left <= 30 ? "warning" : null };
}

type Dialog = "renew" | "extend" | "close" | null;

/**
 * Renewal: the current term, who is responsible, the expiry rule, the renew-by date and the
 * acknowledgement, with the steps the user may take (from the API's `can` flags): Renew, Extend,
 * Acknowledge, Close Permit. A closed permit says so and offers none.
 */
export function RenewalCard({
  permit,
  lifecycle,
  today,
  currency,
}: {
  permit: PermitDetail;
  lifecycle: Lifecycle;
  today: string;
  /** The company's currency (ISO 4217), of the Renewal Fee. */
  currency: string;
}) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const acknowledge = useAcknowledgePermit(permit.id);
  const { can } = lifecycle;
  const hint = lifecycle.renew_by_date ? renewByHint(lifecycle.renew_by_date, today) : null;
  const hasActions = can.renew || can.extend || can.acknowledge || can.close;
  return (
    <DetailCard title="Renewal" icon={<Autorenew />}>
      {lifecycle.closed ? (
        <Alert severity="info" icon={<LockOutlined fontSize="inherit" />} sx={{ mb: 2 }}>
          Closed on {formatDay(lifecycle.closed.close_date)}
          {lifecycle.closed.final_status ? ` (${lifecycle.closed.final_status})` : ""}.{" "}
          {permit.record_type === "bond" ? "Its terms are" : "Its terms and inspections are"} read-only, and
          it gets no reminders.
        </Alert>
      ) : null}
      <FieldGrid
        items={[
          { label: "Current Term", value: `Term ${lifecycle.term_no}` },
          { label: "Responsible Person", value: permit.responsible?.name },
          { label: "Expiry Rule", value: expiryRuleText(lifecycle.expiry_rule, lifecycle.expiry_days) },
          {
            label: "Renew By",
            value: lifecycle.renew_by_date ? (
              <>
                {formatDay(lifecycle.renew_by_date)}
                {hint && !lifecycle.closed ? (
                  <Typography
                    component="span"
                    variant="caption"
                    sx={{
                      display: "block",
                      fontWeight: 600,
                      color: hint.tone ? `${hint.tone}.main` : "text.secondary",
                    }}
                  >
                    {hint.text}
                  </Typography>
                ) : null}
              </>
            ) : lifecycle.renewal_lead_days === null ? (
              "No lead time set"
            ) : null,
          },
          {
            label: "Acknowledgement",
            wide: true,
            value: lifecycle.acknowledged ? (
              <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 0.75 }}>
                <CheckCircleOutline sx={{ fontSize: 18, color: "success.main" }} aria-hidden />
                {acknowledgedLabel(lifecycle.acknowledged)}
              </Box>
            ) : lifecycle.closed ? null : (
              "Not acknowledged for this term yet"
            ),
          },
        ]}
      />
      {hasActions ? (
        <Box
          role="group"
          aria-label="Permit actions"
          sx={{
            display: "flex",
            flexWrap: "wrap",
            gap: 1,
            mt: 2.5,
            pt: 2,
            borderTop: 1,
            borderColor: "divider",
          }}
        >
          {can.renew ? (
            <Button variant="contained" startIcon={<Autorenew />} onClick={() => setDialog("renew")}>
              Renew
            </Button>
          ) : null}
          {can.extend ? (
            <Button variant="outlined" startIcon={<MoreTime />} onClick={() => setDialog("extend")}>
              Extend
            </Button>
          ) : null}
          {can.acknowledge && !lifecycle.acknowledged ? (
            <Button
              variant="outlined"
              startIcon={<PlaylistAddCheck />}
              disabled={acknowledge.isPending}
              onClick={() => acknowledge.mutate({})}
            >
              Acknowledge
            </Button>
          ) : null}
          {can.close ? (
            <Button
              variant="text"
              color="inherit"
              startIcon={<LockOutlined />}
              onClick={() => setDialog("close")}
              sx={{ ml: { sm: "auto" } }}
            >
              Close Permit
            </Button>
          ) : null}
        </Box>
      ) : null}
      {can.renew ? (
        <RenewDialog
          permitId={permit.id}
          open={dialog === "renew"}
          onClose={() => setDialog(null)}
          currentNumber={permit.permit_number}
          currentExpiry={lifecycle.expiration_date}
          currency={currency}
        />
      ) : null}
      {can.extend ? (
        <ExtendDialog
          permitId={permit.id}
          open={dialog === "extend"}
          onClose={() => setDialog(null)}
          currentExpiry={lifecycle.expiration_date}
        />
      ) : null}
      {can.close ? (
        <CloseDialog
          permitId={permit.id}
          open={dialog === "close"}
          onClose={() => setDialog(null)}
          today={today}
          openTasks={lifecycle.open_tasks}
        />
      ) : null}
    </DetailCard>
  );
}

/** The lifecycle cards while the lifecycle loads, or its error in their place. */
export const LifecyclePending = ({ error }: { error: unknown }) => (
  <PendingCard title="Renewal" icon={<Autorenew />} error={error} />
);
