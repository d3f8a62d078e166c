import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import AddIcon from "@mui/icons-material/Add";
import type { Webhook, WebhookCreated } from "../../../../shared/schemas/webhooks.ts";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { ListEmptyState } from "../../../components/getting-started.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useNotify } from "../../../lib/notify.ts";
import { useCan } from "../../../lib/session.tsx";
import { useUrlListState } from "../../../lib/url-list-state.ts";
import { CompanySelect } from "../../companies/index.ts";
import { useSendTestEvent } from "../api/deliveries.ts";
import { useDeleteWebhook } from "../api/delete-webhook.ts";
import { useWebhooks } from "../api/list-webhooks.ts";
import { useUpdateWebhook } from "../api/update-webhook.ts";
import { WebhookDialog } from "./webhook-dialog.tsx";
import { WebhookSecretDialog } from "./webhook-secret-dialog.tsx";
import { deliveryOutcome } from "./webhook-text.ts";
import { WebhooksTable } from "./webhooks-table.tsx";

/**
 * Webhooks (/admin/webhooks, issue 30, items 3 and 4): the company's endpoints that hear of its
 * events, for company-admins and super-admins (every company's, or the one chosen). 'Add Webhook'
 * opens the dialog, then the signing secret is shown once; each row opens its delivery log, sends a
 * test event, edits, disables or enables, and deletes (asking first).
 */
export function WebhooksScreen() {
  const canManage = useCan("webhooks.manage");
  const isSuperAdmin = useCan("allCompanies");
  const notify = useNotify();
  const { params, setParam } = useUrlListState("q");
  const companyId = isSuperAdmin ? (params.get("company") ?? "") : "";
  const [editing, setEditing] = useState<Webhook | "new" | null>(null);
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const [toDelete, setToDelete] = useState<Webhook | null>(null);
  const remove = useDeleteWebhook();
  const update = useUpdateWebhook();
  const test = useSendTestEvent();
  const list = useWebhooks(companyId || null, { enabled: canManage });
  if (!canManage) return <AccessDenied />;

  const data = list.data;
  const closeDelete = () => {
    setToDelete(null);
    remove.reset();
  };
  const busyId = test.isPending
    ? (test.variables ?? null)
    : update.isPending
      ? (update.variables?.id ?? null)
      : null;
  const actions = {
    busyId,
    onEdit: (w: Webhook) => setEditing(w),
    onDelete: setToDelete,
    onTest: (w: Webhook) =>
      test.mutate(w.id, {
        onSuccess: (delivery) => {
          const outcome = deliveryOutcome(delivery);
          notify(`Test event: ${outcome.message}`, outcome.severity);
        },
      }),
    onToggle: (w: Webhook) =>
      update.mutate(
        { id: w.id, patch: { enabled: w.status !== "enabled" } },
        {
          onSuccess: (next) =>
            notify(next.status === "enabled" ? "Webhook enabled." : "Webhook disabled.", "success"),
        },
      ),
  };
  return (
    <>
      <PageHeader
        title="Webhooks"
        actions={
          data?.can.create !== false ? (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
              Add Webhook
            </Button>
          ) : null
        }
      />
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 760 }}>
        Webhooks tell another system, or a Slack or Microsoft Teams channel, when something happens to your
        permits, bonds, requests and tasks. A delivery that fails is tried again for about 17 hours; an
        address that keeps failing for a day is disabled.
      </Typography>
      {isSuperAdmin ? (
        <Box sx={{ mb: 2, maxWidth: 360 }}>
          <CompanySelect
            value={companyId}
            onChange={(id) => setParam({ company: id })}
            allLabel="All companies"
            placeholder="All companies"
            size="small"
          />
        </Box>
      ) : null}
      {list.isPending ? (
        <PageSpinner label="Loading webhooks..." />
      ) : list.isError ? (
        <Typography color="error" role="alert">
          {errorMessage(list.error)}
        </Typography>
      ) : !data || data.webhooks.length === 0 ? (
        <Paper variant="outlined">
          <ListEmptyState text="No webhooks yet. Add one to send your company's events to another system." />
        </Paper>
      ) : (
        <WebhooksTable webhooks={data.webhooks} actions={actions} />
      )}
      <WebhookDialog
        open={editing !== null}
        webhook={editing === "new" ? null : editing}
        companyId={companyId}
        onClose={() => setEditing(null)}
        onCreated={setCreated}
      />
      <WebhookSecretDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={!!toDelete}
        title="Delete webhook"
        message={
          <>
            Delete the webhook to <code style={{ overflowWrap: "anywhere" }}>{toDelete?.url ?? ""}</code>?
          </>
        }
        details="Nothing more is sent to it, and its delivery log is deleted. This cannot be undone."
        confirmLabel="Delete"
        isBusy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : undefined}
        onClose={closeDelete}
        onConfirm={() => toDelete && remove.mutate(toDelete.id, { onSuccess: closeDelete })}
      />
    </>
  );
}
