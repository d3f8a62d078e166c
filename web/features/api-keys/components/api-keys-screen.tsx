import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import AddIcon from "@mui/icons-material/Add";
import type { ApiKey, ApiKeyCreated } from "../../../../shared/schemas/api-keys.ts";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { ListEmptyState } from "../../../components/getting-started.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useCan } from "../../../lib/session.tsx";
import { useUrlListState } from "../../../lib/url-list-state.ts";
import { CompanySelect } from "../../companies/index.ts";
import { useApiKeys } from "../api/list-api-keys.ts";
import { useRevokeApiKey } from "../api/revoke-api-key.ts";
import { ApiKeyCreatedDialog } from "./api-key-created-dialog.tsx";
import { ApiKeyDialog } from "./api-key-dialog.tsx";
import { ApiKeysTable } from "./api-keys-table.tsx";

/**
 * API Keys (/admin/api-keys, issue 30): the company's keys to the JSON API, for company-admins and
 * super-admins (every company's, or the one chosen). 'Create API Key' opens the dialog, then the
 * key is shown once; 'Revoke' asks first.
 */
export function ApiKeysScreen() {
  const canManage = useCan("apiKeys.manage");
  const isSuperAdmin = useCan("allCompanies");
  const { params, setParam } = useUrlListState("q");
  const companyId = isSuperAdmin ? (params.get("company") ?? "") : "";
  const [isCreating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [toRevoke, setToRevoke] = useState<ApiKey | null>(null);
  const revoke = useRevokeApiKey();
  const keys = useApiKeys(companyId || null, { enabled: canManage });
  if (!canManage) return <AccessDenied />;

  const data = keys.data;
  const closeRevoke = () => {
    setToRevoke(null);
    revoke.reset();
  };
  return (
    <>
      <PageHeader
        title="API Keys"
        actions={
          data?.can.create !== false ? (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
              Create API Key
            </Button>
          ) : null
        }
      />
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 760 }}>
        Keys let other systems read and write your permits and bonds through the API, as a Company Admin or a
        Company User. A key can never manage users, keys or webhooks. How to call it:{" "}
        <Link href="/api/docs" target="_blank" rel="noreferrer" underline="always">
          API documentation
        </Link>
        .
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
      {keys.isPending ? (
        <PageSpinner label="Loading API keys..." />
      ) : keys.isError ? (
        <Typography color="error" role="alert">
          {errorMessage(keys.error)}
        </Typography>
      ) : !data || data.api_keys.length === 0 ? (
        <Paper variant="outlined">
          <ListEmptyState text="No API keys yet. Create one to connect another system." />
        </Paper>
      ) : (
        <ApiKeysTable keys={data.api_keys} onRevoke={setToRevoke} />
      )}
      <ApiKeyDialog
        open={isCreating}
        companyId={companyId}
        onClose={() => setCreating(false)}
        onCreated={setCreated}
      />
      <ApiKeyCreatedDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={!!toRevoke}
        title="Revoke API key"
        message={`Revoke the API key "${toRevoke?.name ?? ""}"?`}
        details="Every request with it is refused from now on. This cannot be undone."
        confirmLabel="Revoke"
        isBusy={revoke.isPending}
        error={revoke.isError ? errorMessage(revoke.error) : undefined}
        onClose={closeRevoke}
        onConfirm={() => toRevoke && revoke.mutate(toRevoke.id, { onSuccess: closeRevoke })}
      />
    </>
  );
}
