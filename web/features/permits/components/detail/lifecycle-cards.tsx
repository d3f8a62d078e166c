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
import Autorenew from "@mui/icons-material/Autorenew";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutlineOutlined";
import EventRepeat from "@mui/icons-material/EventRepeat";
import FactCheckOutlined from "@mui/icons-material/FactCheckOutlined";
import HistoryOutlined from "@mui/icons-material/HistoryOutlined";
import LockOutlined from "@mui/icons-material/LockOutlined";
import MoreTime from "@mui/icons-material/MoreTime";
import PlaylistAddCheck from "@mui/icons-material/PlaylistAddCheck";
import { daysBetween } from "../../../../../shared/domain/dates.ts";
import {
  EXPIRY_RULE_LABELS,
  TERM_KIND_LABELS,
  type InspectionResult,
} from "../../../../../shared/domain/lifecycle.ts";
import type {
  Acknowledgement,
  Inspection,
  Lifecycle,
  Term,
} from "../../../../../shared/schemas/lifecycle.ts";
import type { PermitDetail } from "../../../../../shared/schemas/permits.ts";
import { errorMessage } from "../../../../lib/api.ts";
import { formatDay, formatDayOf, formatDayOrDash, formatMoney } from "../../../../lib/format.ts";
import { useIsPhone } from "../../../../components/record-cards.tsx";
import { useAcknowledgePermit } from "../../api/lifecycle-steps.ts";
import { DetailCard, EmptyState, FieldGrid } from "./detail-card.tsx";
import { CloseDialog, ExtendDialog, InspectionDialog, RenewDialog } from "./lifecycle-dialogs.tsx";

/** "Acknowledged by Sam Baker on Nov 22, 2026": the same words on the permit and in the list. */
export const acknowledgedText = (a: Acknowledgement) => `Acknowledged by ${a.by} on ${formatDayOf(a.at)}`;

/** How the expiry is set, in words: "Fixed date" or "180 days after last passed inspection". */
export function expiryRuleText(rule: Lifecycle["expiry_rule"], days: number | null): string {
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
}: {
  permit: PermitDetail;
  lifecycle: Lifecycle;
  today: string;
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
          {lifecycle.closed.final_status ? ` (${lifecycle.closed.final_status})` : ""}. Its terms and
          inspections are read-only, and it gets no reminders.
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
                {acknowledgedText(lifecycle.acknowledged)}
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
        />
      ) : null}
    </DetailCard>
  );
}

/** What a term row adds to its kind: the fee and note of a renewal, the reason of an extension. */
function termDetails(term: Term): string | null {
  const parts = [
    term.renewal_fee ? `Fee ${formatMoney(term.renewal_fee)}` : null,
    term.reason,
    term.note,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : null;
}

const isCurrent = (term: Term, lifecycle: Lifecycle, index: number, terms: Term[]) =>
  !lifecycle.closed && term.term_no === lifecycle.term_no && index === terms.length - 1;

function HowCell({ term }: { term: Term }) {
  const details = termDetails(term);
  return (
    <>
      <Typography component="span" variant="body2" sx={{ fontWeight: 500 }}>
        {TERM_KIND_LABELS[term.kind]}
      </Typography>
      {details ? (
        <Typography
          component="span"
          variant="caption"
          sx={{ display: "block", color: "text.secondary", overflowWrap: "anywhere" }}
        >
          {details}
        </Typography>
      ) : null}
    </>
  );
}

/** A term's facts on a phone: two short columns, label beside value, so a term stays a few lines. */
function TermFacts({ term }: { term: Term }) {
  const details = termDetails(term);
  const facts: [string, string | null][] = [
    ["Permit #", term.permit_number],
    ["Issued", formatDay(term.issue_date)],
    ["Expires", formatDay(term.expiration_date)],
    ["Ended", formatDay(term.ended_on)],
  ];
  return (
    <Box
      component="dl"
      sx={{ m: 0, display: "grid", gridTemplateColumns: "auto minmax(0, 1fr)", columnGap: 1.5, rowGap: 0.25 }}
    >
      {[...facts, ...(details ? [["Details", details] as [string, string]] : [])].map(([label, value]) => (
        <Box key={label} sx={{ display: "contents" }}>
          <Typography component="dt" variant="body2" sx={{ color: "text.secondary" }}>
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: "anywhere" }}>
            {value ?? "—"}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** Terms: every term, renewal and extension in order (Term, Permit #, Issued, Expires, Ended, How). */
export function TermsCard({ lifecycle }: { lifecycle: Lifecycle }) {
  const isPhone = useIsPhone();
  const terms = lifecycle.terms;
  const current = (
    <Chip label="Current" size="small" color="primary" variant="outlined" sx={{ ml: 1, height: 20 }} />
  );
  return (
    <DetailCard title="Terms" icon={<HistoryOutlined />}>
      {terms.length === 0 ? (
        <EmptyState>No terms recorded.</EmptyState>
      ) : isPhone ? (
        <Box
          component="ul"
          aria-label="Terms"
          sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 1 }}
        >
          {terms.map((term, i) => (
            <Box
              component="li"
              key={term.id}
              sx={{ border: 1, borderColor: "divider", borderRadius: 2, p: 1.5 }}
            >
              <Box sx={{ display: "flex", alignItems: "center", mb: 0.75 }}>
                <Typography variant="body2" sx={{ fontWeight: 650 }}>
                  Term {term.term_no} · {TERM_KIND_LABELS[term.kind]}
                </Typography>
                {isCurrent(term, lifecycle, i, terms) ? current : null}
              </Box>
              <TermFacts term={term} />
            </Box>
          ))}
        </Box>
      ) : (
        <TableContainer>
          <Table size="small" aria-label="Terms">
            <TableHead>
              <TableRow>
                <TableCell>Term</TableCell>
                <TableCell>Permit #</TableCell>
                <TableCell>Issued</TableCell>
                <TableCell>Expires</TableCell>
                <TableCell>Ended</TableCell>
                <TableCell>How</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {terms.map((term, i) => (
                <TableRow
                  key={term.id}
                  sx={isCurrent(term, lifecycle, i, terms) ? { bgcolor: "action.hover" } : undefined}
                >
                  <TableCell sx={{ whiteSpace: "nowrap" }}>
                    {term.term_no}
                    {isCurrent(term, lifecycle, i, terms) ? current : null}
                  </TableCell>
                  <TableCell sx={{ overflowWrap: "anywhere" }}>{term.permit_number}</TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDayOrDash(term.issue_date)}</TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDayOrDash(term.expiration_date)}</TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDayOrDash(term.ended_on)}</TableCell>
                  <TableCell>
                    <HowCell term={term} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </DetailCard>
  );
}

const RESULT_COLORS: Record<InspectionResult, "success" | "error" | "warning" | "default"> = {
  Passed: "success",
  Failed: "error",
  Partial: "warning",
  Cancelled: "default",
};

function InspectionRow({ inspection }: { inspection: Inspection }) {
  const meta = [formatDay(inspection.date), inspection.inspector].filter(Boolean).join(" · ");
  return (
    <Box
      component="li"
      sx={{
        display: "flex",
        gap: 1.5,
        alignItems: "flex-start",
        p: 1.25,
        border: 1,
        borderColor: "divider",
        borderRadius: 2,
      }}
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: "anywhere" }}>
          {inspection.inspection_type}
        </Typography>
        <Typography variant="caption" sx={{ color: "text.secondary", display: "block" }}>
          {meta}
        </Typography>
        {inspection.notes ? (
          <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: "anywhere", whiteSpace: "pre-line" }}>
            {inspection.notes}
          </Typography>
        ) : null}
      </Box>
      <Chip
        label={inspection.result}
        size="small"
        color={RESULT_COLORS[inspection.result]}
        variant={inspection.result === "Cancelled" ? "outlined" : "filled"}
        sx={{ fontWeight: 600, flexShrink: 0 }}
      />
    </Box>
  );
}

/** Inspections, newest first, with 'Record Inspection' for those who may. */
export function InspectionsCard({
  permitId,
  lifecycle,
  today,
}: {
  permitId: string;
  lifecycle: Lifecycle;
  today: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <DetailCard
      title="Inspections"
      icon={<FactCheckOutlined />}
      action={
        lifecycle.can.inspect ? (
          <Button
            variant="outlined"
            size="small"
            startIcon={<EventRepeat />}
            onClick={() => setOpen(true)}
            sx={{ whiteSpace: "nowrap", flexShrink: 0 }}
          >
            Record Inspection
          </Button>
        ) : null
      }
    >
      {lifecycle.inspections.length === 0 ? (
        <EmptyState>No inspections recorded.</EmptyState>
      ) : (
        <Box
          component="ul"
          aria-label="Inspections"
          sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 1 }}
        >
          {lifecycle.inspections.map((inspection) => (
            <InspectionRow key={inspection.id} inspection={inspection} />
          ))}
        </Box>
      )}
      {lifecycle.can.inspect ? (
        <InspectionDialog
          permitId={permitId}
          open={open}
          onClose={() => setOpen(false)}
          today={today}
          movesExpiryBy={lifecycle.expiry_rule === "after_inspection" ? lifecycle.expiry_days : null}
        />
      ) : null}
    </DetailCard>
  );
}

/** The lifecycle cards while the lifecycle loads, or its error in their place. */
export function LifecyclePending({ error }: { error: unknown }) {
  return (
    <DetailCard title="Renewal" icon={<Autorenew />}>
      {error ? (
        <Alert severity="error">{errorMessage(error)}</Alert>
      ) : (
        <Skeleton variant="rounded" height={96} />
      )}
    </DetailCard>
  );
}
