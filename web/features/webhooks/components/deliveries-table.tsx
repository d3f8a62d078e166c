import { Fragment, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { WebhookAttempt, WebhookDelivery } from "../../../../shared/schemas/webhooks.ts";
import { RecordCard, RecordCards, useIsPhone, type RecordField } from "../../../components/record-cards.tsx";
import { formatMoment } from "../../../lib/format.ts";
import { deliveryStatusColor, deliveryStatusLabel, eventLabel, formatDuration } from "./webhook-text.ts";

const DASH = "—";

/** The answer's first characters, in monospace on one line, cut with an ellipsis; whole on hover. */
function excerpt(attempt: WebhookAttempt | undefined) {
  if (!attempt) return DASH;
  if (attempt.status_code === null && attempt.error)
    return (
      <Typography component="span" variant="body2" color="error.dark" data-raw-text>
        {attempt.error}
      </Typography>
    );
  if (!attempt.response_excerpt) return DASH;
  return (
    <Box
      component="code"
      title={attempt.response_excerpt}
      sx={{
        display: "block",
        maxWidth: { xs: "100%", md: 240 },
        overflow: "hidden",
        textOverflow: "ellipsis",
        whiteSpace: "nowrap",
        fontSize: "0.8125rem",
      }}
    >
      {attempt.response_excerpt}
    </Box>
  );
}

const status = (d: WebhookDelivery) => (
  <Chip
    size="small"
    variant="outlined"
    label={deliveryStatusLabel(d.status, d.attempts)}
    color={deliveryStatusColor(d.status)}
  />
);
const code = (a: WebhookAttempt | undefined) =>
  a?.status_code === null || !a ? DASH : String(a.status_code);
const duration = (a: WebhookAttempt | undefined) => (a ? formatDuration(a.duration_ms) : DASH);

/** Every attempt of a delivery, newest first: when, the answer's code, how long, what it said. */
function AttemptsList({ id, delivery }: { id: string; delivery: WebhookDelivery }) {
  if (delivery.attempt_log.length === 0)
    return (
      <Typography id={id} variant="body2" color="text.secondary" sx={{ py: 1 }}>
        Not attempted yet
        {delivery.next_attempt_at ? `: next at ${formatMoment(delivery.next_attempt_at)}` : ""}.
      </Typography>
    );
  return (
    <Box id={id} sx={{ py: 1 }}>
      <Typography variant="body2" sx={{ fontWeight: 600, mb: 0.5 }}>
        Attempts
        {delivery.next_attempt_at ? ` (next at ${formatMoment(delivery.next_attempt_at)})` : ""}
      </Typography>
      <Box component="ol" sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 0.75 }}>
        {delivery.attempt_log.map((a, i) => (
          <Box
            component="li"
            key={`${a.attempted_at}-${i}`}
            sx={{
              display: "grid",
              gridTemplateColumns: { xs: "1fr", md: "190px 90px 80px minmax(0, 1fr)" },
              columnGap: 2,
              fontSize: "0.875rem",
              borderTop: i ? 1 : 0,
              borderColor: "divider",
              pt: i ? 0.75 : 0,
            }}
          >
            <span>
              {formatMoment(a.attempted_at)}
              {a.manual ? " (resent)" : ""}
            </span>
            <span>{a.status_code === null ? "No answer" : `Status ${a.status_code}`}</span>
            <span>{formatDuration(a.duration_ms)}</span>
            <Box sx={{ minWidth: 0 }}>{excerpt(a)}</Box>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/**
 * A delivery log's page (issue 30, item 4): Time, Event, Subject, Status, and the newest attempt's
 * Status Code, Duration and Response; 'Attempts' unfolds every attempt, 'Resend' from the
 * delivery's `can`. Cards on a phone.
 */
export function DeliveriesTable({
  deliveries,
  resendingId,
  onResend,
}: {
  deliveries: WebhookDelivery[];
  resendingId: string | null;
  onResend: (d: WebhookDelivery) => void;
}) {
  const isPhone = useIsPhone();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const attemptsId = (d: WebhookDelivery) => `delivery-attempts-${d.id}`;
  const actions = (d: WebhookDelivery) => {
    const name = `${eventLabel(d.event_type)} at ${formatMoment(d.occurred_at)}`;
    return (
      <>
        <Button
          size="small"
          aria-expanded={open.has(d.id)}
          aria-controls={open.has(d.id) ? attemptsId(d) : undefined}
          aria-label={`Attempts (${d.attempt_log.length}) of ${name}`}
          onClick={() => toggle(d.id)}
        >
          Attempts ({d.attempt_log.length})
        </Button>
        {d.can.resend ? (
          <Button
            size="small"
            onClick={() => onResend(d)}
            disabled={resendingId === d.id}
            aria-label={`Resend ${name}`}
          >
            {resendingId === d.id ? "Resending..." : "Resend"}
          </Button>
        ) : null}
      </>
    );
  };
  if (isPhone) {
    return (
      <RecordCards label="Deliveries">
        {deliveries.map((d) => {
          const last = d.attempt_log[0];
          const fields: RecordField[] = [
            { label: "Time", value: formatMoment(d.occurred_at) },
            { label: "Subject", value: d.subject ?? DASH },
            { label: "Status", value: status(d) },
            { label: "Status Code", value: code(last) },
            { label: "Duration", value: duration(last) },
            { label: "Response", value: excerpt(last) },
          ];
          return (
            <RecordCard key={d.id} title={eventLabel(d.event_type)} fields={fields} actions={actions(d)}>
              {open.has(d.id) ? <AttemptsList id={attemptsId(d)} delivery={d} /> : null}
            </RecordCard>
          );
        })}
      </RecordCards>
    );
  }
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="Deliveries" sx={{ "& th": { whiteSpace: "nowrap" } }}>
        <TableHead>
          <TableRow>
            <TableCell>Time</TableCell>
            <TableCell>Event</TableCell>
            <TableCell>Subject</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Status Code</TableCell>
            <TableCell>Duration</TableCell>
            <TableCell>Response</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {deliveries.map((d) => {
            const last = d.attempt_log[0];
            return (
              <Fragment key={d.id}>
                <TableRow sx={open.has(d.id) ? { "& > td": { borderBottom: 0 } } : undefined}>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{formatMoment(d.occurred_at)}</TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{eventLabel(d.event_type)}</TableCell>
                  <TableCell sx={{ minWidth: 140, overflowWrap: "anywhere" }}>{d.subject ?? DASH}</TableCell>
                  <TableCell>{status(d)}</TableCell>
                  <TableCell>{code(last)}</TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{duration(last)}</TableCell>
                  <TableCell sx={{ maxWidth: 260 }}>{excerpt(last)}</TableCell>
                  <TableCell align="right">
                    <Box sx={{ display: "flex", justifyContent: "flex-end", gap: 0.5, flexWrap: "wrap" }}>
                      {actions(d)}
                    </Box>
                  </TableCell>
                </TableRow>
                {open.has(d.id) ? (
                  <TableRow>
                    <TableCell colSpan={8} sx={{ bgcolor: "action.hover" }}>
                      <AttemptsList id={attemptsId(d)} delivery={d} />
                    </TableCell>
                  </TableRow>
                ) : null}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
