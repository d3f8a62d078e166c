import { useState } from "react";
import { useSearchParams } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Template } from "../../../../shared/schemas/templates.ts";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { RecordCards, useIsPhone } from "../../../components/record-cards.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useCan, useCurrentUser } from "../../../lib/session.tsx";
import { CompanySelect } from "../../companies/index.ts";
import { useTemplates } from "../api/list-templates.ts";
import { useDeleteTemplate } from "../api/save-template.ts";
import { TemplateAddRow } from "../components/template-add-row.tsx";
import { TemplateRow } from "../components/template-row.tsx";
import { TemplateConditionsDialog } from "../components/template-conditions-dialog.tsx";
import { EMPTY_STATES } from "../../../../shared/domain/empty-states.ts";

/** Permit Templates (/admin/permit-templates): the permits every new project of a company gets. */
export default function PermitTemplatesPage() {
  const me = useCurrentUser();
  const canManage = useCan("templates.manage");
  const picksCompany = useCan("allCompanies");
  const [search, setSearch] = useSearchParams();
  const companyId = picksCompany ? (search.get("company") ?? "") : (me.companyId ?? "");
  const templates = useTemplates(canManage ? companyId : "");
  const remove = useDeleteTemplate(companyId);
  const [toDelete, setToDelete] = useState<Template | null>(null);
  // Issue 29: the template whose Conditions are open.
  const [conditionsOf, setConditionsOf] = useState<Template | null>(null);
  const isPhone = useIsPhone();

  if (!canManage || (!picksCompany && !me.companyId)) {
    return (
      <>
        <PageHeader title="Permit Templates" />
        <AccessDenied />
      </>
    );
  }
  const closeDelete = () => {
    setToDelete(null);
    remove.reset();
  };
  return (
    <>
      <PageHeader title="Permit Templates" />
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 760 }}>
        Every new project gets one permit for each active template, with its name, agency, status and expiry
        defaults.
      </Typography>
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
      {!companyId ? (
        <Alert severity="info">Select a company to see and add its permit templates.</Alert>
      ) : (
        <>
          <TemplateAddRow key={companyId} companyId={companyId} />
          {templates.isPending ? (
            <PageSpinner label="Loading templates..." />
          ) : templates.isError ? (
            <Typography color="error" role="alert">
              {errorMessage(templates.error)}
            </Typography>
          ) : isPhone ? (
            templates.data.length ? (
              <RecordCards label="Permit templates">
                {templates.data.map((template) => (
                  <TemplateRow
                    key={template.id}
                    template={template}
                    companyId={companyId}
                    onDelete={setToDelete}
                    onConditions={setConditionsOf}
                    layout="card"
                  />
                ))}
              </RecordCards>
            ) : (
              <Typography color="text.secondary">{EMPTY_STATES.templates.none}</Typography>
            )
          ) : (
            <TableContainer component={Paper} variant="outlined">
              <Table size="small" aria-label="Permit templates">
                <TableHead>
                  <TableRow>
                    <TableCell>Permit Name</TableCell>
                    <TableCell>Agency</TableCell>
                    <TableCell>Expiry Defaults</TableCell>
                    <TableCell>Status</TableCell>
                    <TableCell>Active</TableCell>
                    <TableCell align="right">Actions</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {templates.data.map((template) => (
                    <TemplateRow
                      key={template.id}
                      template={template}
                      companyId={companyId}
                      onDelete={setToDelete}
                      onConditions={setConditionsOf}
                    />
                  ))}
                  {templates.data.length === 0 ? (
                    <TableRow>
                      <TableCell colSpan={6} align="center" sx={{ py: 3, color: "text.secondary" }}>
                        {EMPTY_STATES.templates.none}
                      </TableCell>
                    </TableRow>
                  ) : null}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </>
      )}
      {conditionsOf && companyId ? (
        <TemplateConditionsDialog
          key={conditionsOf.id}
          template={conditionsOf}
          companyId={companyId}
          onClose={() => setConditionsOf(null)}
        />
      ) : null}
      <ConfirmDialog
        open={!!toDelete}
        title="Delete template"
        message={`Delete the template "${toDelete?.name ?? ""}"?`}
        details="Permits already created from it stay in their projects."
        isBusy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : undefined}
        onClose={closeDelete}
        onConfirm={() => toDelete && remove.mutate(toDelete.id, { onSuccess: closeDelete })}
      />
    </>
  );
}
