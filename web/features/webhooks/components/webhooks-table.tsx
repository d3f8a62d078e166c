import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router";
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
import type { Webhook } from "../../../../shared/schemas/webhooks.ts";
import { RecordCard, RecordCards, useIsPhone, type RecordField } from "../../../components/record-cards.tsx";
import { formatMoment } from "../../../lib/format.ts";
import { paths } from "../../../lib/paths.ts";
import { eventsSummary, FORMAT_SHORT_LABELS, lastDeliveryText } from "./webhook-text.ts";

export interface WebhookActions {
  onTest: (w: Webhook) => void;
  onEdit: (w: Webhook) => void;
  onToggle: (w: Webhook) => void;
  onDelete: (w: Webhook) => void;
  /** The endpoint whose test event or enable/disable is under way: its buttons wait. */
  busyId: string | null;
}

/** The address as typed, in monospace, wrapping anywhere (a long path never widens the page). */
export const urlText = (w: Pick<Webhook, "url">) => (
  <Box component="code" sx={{ overflowWrap: "anywhere", fontSize: "0.8125rem" }}>
    {w.url}
  </Box>
);

const events = (w: Webhook) => {
  const { text, full } = eventsSummary(w.events);
  return <span title={full === text ? undefined : full}>{text}</span>;
};

/** Enabled / Disabled as a chip, and why it was disabled or since when it has been failing. */
function status(w: Webhook) {
  const isOn = w.status === "enabled";
  return (
    <>
      <Chip
        size="small"
        variant="outlined"
        label={isOn ? "Enabled" : "Disabled"}
        color={isOn ? "success" : "default"}
      />
      {!isOn && w.disabled_reason ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: "anywhere" }}>
          {w.disabled_reason}
        </Typography>
      ) : null}
      {isOn && w.failing_since ? (
        <Typography variant="body2" color="error.dark" sx={{ mt: 0.5 }}>
          Failing since {formatMoment(w.failing_since)}
        </Typography>
      ) : null}
    </>
  );
}

const lastDelivery = (w: Webhook) => (
  <>
    <span>{lastDeliveryText(w.last_delivery)}</span>
    {w.last_delivery ? (
      <Typography variant="body2" color="text.secondary" component="span" sx={{ display: "block" }}>
        {formatMoment(w.last_delivery.at)}
      </Typography>
    ) : null}
  </>
);

function actionsOf(w: Webhook, a: WebhookActions): ReactNode {
  const isBusy = a.busyId === w.id;
  return (
    <>
      <Button
        size="small"
        component={RouterLink}
        to={paths.webhookDeliveries(w.id)}
        aria-label={`Deliveries of ${w.url}`}
      >
        Deliveries
      </Button>
      {w.can.edit ? (
        <>
          <Button
            size="small"
            onClick={() => a.onTest(w)}
            disabled={isBusy}
            aria-label={`Send Test Event to ${w.url}`}
          >
            Send Test Event
          </Button>
          <Button size="small" onClick={() => a.onEdit(w)} aria-label={`Edit ${w.url}`}>
            Edit
          </Button>
          <Button
            size="small"
            onClick={() => a.onToggle(w)}
            disabled={isBusy}
            aria-label={`${w.status === "enabled" ? "Disable" : "Enable"} ${w.url}`}
          >
            {w.status === "enabled" ? "Disable" : "Enable"}
          </Button>
        </>
      ) : null}
      {w.can.delete ? (
        <Button size="small" color="error" onClick={() => a.onDelete(w)} aria-label={`Delete ${w.url}`}>
          Delete
        </Button>
      ) : null}
    </>
  );
}

/**
 * The Webhooks list (issue 30, item 3): URL, Format, Events, Status, Last Delivery, and the row's
 * actions from its `can` (Deliveries for all). Cards on a phone.
 */
export function WebhooksTable({ webhooks, actions }: { webhooks: Webhook[]; actions: WebhookActions }) {
  const isPhone = useIsPhone();
  if (isPhone) {
    return (
      <RecordCards label="Webhooks">
        {webhooks.map((w) => {
          const fields: RecordField[] = [
            { label: "Format", value: FORMAT_SHORT_LABELS[w.format] },
            { label: "Events", value: events(w) },
            { label: "Status", value: status(w) },
            { label: "Last Delivery", value: lastDelivery(w) },
          ];
          return <RecordCard key={w.id} title={urlText(w)} fields={fields} actions={actionsOf(w, actions)} />;
        })}
      </RecordCards>
    );
  }
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table
        size="small"
        aria-label="Webhooks"
        sx={{ "& th": { whiteSpace: "nowrap" }, "& td": { verticalAlign: "top" } }}
      >
        <TableHead>
          <TableRow>
            <TableCell>URL</TableCell>
            <TableCell>Format</TableCell>
            <TableCell>Events</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Last Delivery</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {webhooks.map((w) => (
            <TableRow key={w.id}>
              <TableCell sx={{ minWidth: 180, maxWidth: 320 }}>{urlText(w)}</TableCell>
              <TableCell>{FORMAT_SHORT_LABELS[w.format]}</TableCell>
              <TableCell sx={{ minWidth: 120 }}>{events(w)}</TableCell>
              <TableCell sx={{ minWidth: 110, maxWidth: 220 }}>{status(w)}</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{lastDelivery(w)}</TableCell>
              <TableCell align="right">
                <Box
                  sx={{
                    display: "flex",
                    flexWrap: "wrap",
                    justifyContent: "flex-end",
                    gap: 0.5,
                    minWidth: 200,
                  }}
                >
                  {actionsOf(w, actions)}
                </Box>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
