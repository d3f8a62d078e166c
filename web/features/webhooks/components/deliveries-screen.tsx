import { Link as RouterLink, useSearchParams } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import TablePagination from "@mui/material/TablePagination";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { ListEmptyState } from "../../../components/getting-started.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage, isApiError } from "../../../lib/api.ts";
import { useNotify } from "../../../lib/notify.ts";
import { paths } from "../../../lib/paths.ts";
import { useCan } from "../../../lib/session.tsx";
import { useResendDelivery, useSendTestEvent, useWebhookDeliveries } from "../api/deliveries.ts";
import { DeliveriesTable } from "./deliveries-table.tsx";
import { deliveryOutcome, eventsSummary, FORMAT_SHORT_LABELS } from "./webhook-text.ts";
import { urlText } from "./webhooks-table.tsx";

/**
 * One endpoint's delivery log (/admin/webhooks/:id/deliveries, issue 30, item 4): newest first,
 * 25 a page; each delivery's attempts unfold; 'Resend' sends the same message again and the toast
 * says how it went, as 'Send Test Event' does.
 */
export function DeliveriesScreen({ webhookId }: { webhookId: string }) {
  const canManage = useCan("webhooks.manage");
  const notify = useNotify();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get("page")) || 1);
  const log = useWebhookDeliveries(webhookId, page);
  const resend = useResendDelivery(webhookId);
  const test = useSendTestEvent();
  if (!canManage) return <AccessDenied />;

  const say = (prefix: string) => (delivery: Parameters<typeof deliveryOutcome>[0]) => {
    const outcome = deliveryOutcome(delivery);
    notify(`${prefix}${outcome.message}`, outcome.severity);
  };
  const back = (
    <Button component={RouterLink} to={paths.webhooks} size="small" sx={{ mb: 1, ml: -1 }}>
      ← Back to Webhooks
    </Button>
  );
  if (log.isPending) return <PageSpinner label="Loading deliveries..." />;
  if (log.isError) {
    const isMissing = isApiError(log.error) && log.error.status === 404;
    return (
      <>
        {back}
        <Alert severity={isMissing ? "warning" : "error"} sx={{ mt: 2 }}>
          {isMissing ? "Webhook not found." : errorMessage(log.error)}
        </Alert>
      </>
    );
  }
  const { webhook, deliveries, total, page_size } = log.data;
  return (
    <>
      {back}
      <PageHeader
        title="Webhook Deliveries"
        actions={
          webhook.can.edit ? (
            <Button
              variant="outlined"
              disabled={test.isPending}
              onClick={() => test.mutate(webhook.id, { onSuccess: say("Test event: ") })}
            >
              {test.isPending ? "Sending..." : "Send Test Event"}
            </Button>
          ) : null
        }
      />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Box
          component="dl"
          sx={{
            m: 0,
            display: "grid",
            gridTemplateColumns: "minmax(72px, auto) 1fr",
            columnGap: 2,
            rowGap: 0.5,
            "& dt": { color: "text.secondary" },
            "& dd": { m: 0, minWidth: 0 },
          }}
        >
          <dt>URL</dt>
          <dd>{urlText(webhook)}</dd>
          <dt>Format</dt>
          <dd>{FORMAT_SHORT_LABELS[webhook.format]}</dd>
          <dt>Events</dt>
          <dd>{eventsSummary(webhook.events).full}</dd>
          <dt>Status</dt>
          <dd>
            {webhook.status === "enabled" ? "Enabled" : "Disabled"}
            {webhook.status !== "enabled" && webhook.disabled_reason ? `: ${webhook.disabled_reason}` : ""}
          </dd>
        </Box>
      </Paper>
      {deliveries.length === 0 ? (
        <Paper variant="outlined">
          <ListEmptyState text="No deliveries yet. They appear here when one of its events happens, or after 'Send Test Event'." />
        </Paper>
      ) : (
        <>
          <DeliveriesTable
            deliveries={deliveries}
            resendingId={resend.isPending ? (resend.variables ?? null) : null}
            onResend={(d) => resend.mutate(d.id, { onSuccess: say("Resent: ") })}
          />
          <TablePagination
            component="div"
            count={total}
            page={page - 1}
            rowsPerPage={page_size}
            rowsPerPageOptions={[]}
            onPageChange={(_e, p) =>
              setParams(
                (prev) => {
                  const next = new URLSearchParams(prev);
                  if (p) next.set("page", String(p + 1));
                  else next.delete("page");
                  return next;
                },
                { replace: true },
              )
            }
          />
        </>
      )}
    </>
  );
}
