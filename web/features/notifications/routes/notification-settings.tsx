import { useSearchParams } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import SendIcon from "@mui/icons-material/ForwardToInboxOutlined";
import { NOTIFICATION_MESSAGES } from "../../../../shared/schemas/notifications.ts";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useNotify } from "../../../lib/notify.ts";
import { useMe } from "../../../lib/session.tsx";
import { CompanySelect } from "../../companies/index.ts";
import { useNotificationSettings } from "../api/settings.ts";
import { useSendTestEmail } from "../api/test-email.ts";
import { DeliveriesTable } from "../components/deliveries-table.tsx";
import { ReminderSettingsForm } from "../components/reminder-settings-form.tsx";

const TITLE = "Notification Settings";

/**
 * /settings/notifications (spec section 2): a company's reminder switches (30, 7, 1 day), who
 * receives the reminders, its recent deliveries and a test e-mail. A super-admin picks the company;
 * a company-admin sees its own; other roles are refused (the server refuses them too).
 */
export default function NotificationSettingsPage() {
  const me = useMe().data;
  if (!me) return <Blocked message={NOTIFICATION_MESSAGES.userNotLoaded} />;
  if (!me.capabilities.includes("notifications.manage")) return <Blocked />;
  const picksCompany = me.capabilities.includes("allCompanies");
  if (!picksCompany && !me.companyId) return <Blocked message={NOTIFICATION_MESSAGES.companyMissing} />;
  return <SettingsScreen picksCompany={picksCompany} />;
}

/** A role without the page: the one access-denied text; anything else missing: what it is. */
function Blocked({ message }: { message?: string }) {
  return (
    <>
      <PageHeader title={TITLE} />
      {message ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {message}
        </Alert>
      ) : (
        <AccessDenied />
      )}
    </>
  );
}

function SettingsScreen({ picksCompany }: { picksCompany: boolean }) {
  const [search, setSearch] = useSearchParams();
  // "" asks the server for the user's own company; a super-admin must pick one first.
  const companyId = picksCompany ? (search.get("company") ?? "") : "";
  const hasCompany = !picksCompany || !!companyId;
  const settings = useNotificationSettings(companyId, hasCompany);
  const notify = useNotify();
  const testEmail = useSendTestEmail();
  const sendTest = () =>
    testEmail.mutate(undefined, { onSuccess: (r) => notify(`Test e-mail sent to ${r.to}.`, "success") });

  return (
    <>
      <PageHeader
        title={TITLE}
        actions={
          <Button
            variant="outlined"
            startIcon={<SendIcon />}
            onClick={sendTest}
            disabled={testEmail.isPending}
          >
            {testEmail.isPending ? "Sending..." : "Send test e-mail"}
          </Button>
        }
      />
      {testEmail.isError ? (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => testEmail.reset()}>
          {errorMessage(testEmail.error)}
        </Alert>
      ) : null}
      {picksCompany ? (
        <Box sx={{ mb: 2, maxWidth: 360 }}>
          <CompanySelect
            value={companyId}
            onChange={(company) => setSearch(company ? { company } : {}, { replace: true })}
            size="small"
            fullWidth
          />
        </Box>
      ) : null}
      {!hasCompany ? (
        <Alert severity="info">Select a company to see and change its notification settings.</Alert>
      ) : settings.isPending ? (
        <PageSpinner label="Loading notification settings..." />
      ) : settings.isError ? (
        <Alert severity="error">{errorMessage(settings.error)}</Alert>
      ) : (
        <>
          <ReminderSettingsForm
            key={settings.data.companyId}
            settings={settings.data}
            companyId={companyId}
          />
          <DeliveriesTable companyId={companyId} />
        </>
      )}
    </>
  );
}
