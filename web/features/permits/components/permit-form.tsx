import { useEffect, useMemo, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { useNavigate } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import {
  PERMIT_INPUT_FIELDS,
  type PermitDetail,
  type PermitFormValues,
  type PermitInput,
} from "../../../../shared/schemas/permits.ts";
import { useUnsavedChanges } from "../../../components/unsaved-changes.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { useNotify } from "../../../lib/notify.ts";
import { useCan } from "../../../lib/session.tsx";
import { useAgencies } from "../api/get-agencies.ts";
import { usePermitFormOptions } from "../api/get-form-options.ts";
import { useSavePermit } from "../api/save-permit.ts";
import { useUploadPermitFile } from "../../attachments/index.ts";
import { AuditTrailList } from "../../audit/index.ts";
import { ContactsSection } from "./permit-contacts-section.tsx";
import { PermitFilePicker } from "./permit-file-picker.tsx";
import { PermitFormSuggestions } from "./permit-form-suggestions.tsx";
import {
  AgencySection,
  ArchivedSwitch,
  BondSection,
  CompanySection,
  ProjectInfoSection,
  RenewalSection,
  TimelineSection,
} from "./permit-form-sections.tsx";
import {
  EMPTY_PERMIT_VALUES,
  hasPermitFieldErrors,
  permitFormResolver,
  permitFormValues,
  type PermitFormContext,
} from "./permit-form-values.ts";

export interface PermitFormProps {
  /** The permit being edited; none when creating. */
  permit?: PermitDetail;
  /** Creating within a project (/projects/{projectId}/permits/new): preselected. */
  projectId?: string;
  /** Where Cancel goes. A save always lands on the permit's page (issue 14). */
  backTo: string;
}

/**
 * The permit form (spec section 2), create and edit: Project Info, Agency Info, Contacts (issue 27),
 * Timeline, Permit File Upload, Company (super-admin), Archived, and on edit the Audit Trail. Every rule is in
 * PermitInputSchema, which the server applies again.
 */
export function PermitForm({ permit, projectId, backTo }: PermitFormProps) {
  const navigate = useNavigate();
  const notify = useNotify();
  const isSuperAdmin = useCan("allCompanies");
  const save = useSavePermit(permit?.id ?? null);
  const [progress, setProgress] = useState(0);
  const upload = useUploadPermitFile();
  const [file, setFile] = useState<File | null>(null);

  const defaultValues = useMemo(
    () => (permit ? permitFormValues(permit) : { ...EMPTY_PERMIT_VALUES, project_id: projectId ?? "" }),
    [permit, projectId],
  );
  const [hasProjects, setHasProjects] = useState(false);
  const { control, handleSubmit, setError, setValue, formState } = useForm<
    PermitFormValues,
    PermitFormContext,
    PermitInput
  >({
    resolver: permitFormResolver,
    // Read by the resolver at each check; react-hook-form takes the latest props on every render.
    context: { hasProjects, needsCompany: isSuperAdmin },
    defaultValues,
  });
  const [companyId, recordType] = useWatch({ control, name: ["company_id", "record_type"] });
  const guard = useUnsavedChanges(formState.isDirty || !!file);

  // A super-admin's form works on the chosen company (or, opened from a project, on its company).
  const options = usePermitFormOptions(
    isSuperAdmin ? companyId || null : null,
    isSuperAdmin && !companyId ? (projectId ?? null) : null,
  );
  const agencies = useAgencies(isSuperAdmin ? companyId || null : null);
  const projects = options.data?.projects ?? [];
  if (hasProjects !== projects.length > 0) setHasProjects(projects.length > 0);
  useEffect(() => {
    if (isSuperAdmin && !companyId && options.data?.company_id)
      setValue("company_id", options.data.company_id);
  }, [isSuperAdmin, companyId, options.data?.company_id, setValue]);

  const onSubmit = handleSubmit(async (values) => {
    let saved: PermitDetail;
    try {
      saved = await save.mutateAsync(values);
    } catch (error) {
      applyServerFieldErrors(error, setError, PERMIT_INPUT_FIELDS);
      return;
    }
    if (file) {
      try {
        await upload.mutateAsync({ permitId: saved.id, file, onProgress: setProgress });
      } catch (error) {
        notify(
          `The permit was saved, but the file could not be uploaded: ${errorMessage(error)} Upload it again from the permit's page.`,
          "error",
        );
        await navigate(`/permits/${saved.id}`);
        return;
      }
    }
    // A new permit may land on any page of the list: show it where it can be seen at once.
    await navigate(`/permits/${saved.id}`);
  });

  const busy = formState.isSubmitting;
  const projectHint =
    options.isSuccess && !hasProjects
      ? isSuperAdmin && !companyId
        ? "Select a company first."
        : "This company has no projects yet."
      : undefined;
  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: "grid", gap: 2, maxWidth: 1040 }}>
      {save.isError && !hasPermitFieldErrors(save.error) ? (
        <Alert severity="error">{errorMessage(save.error)}</Alert>
      ) : null}
      {options.isError ? <Alert severity="error">{errorMessage(options.error)}</Alert> : null}
      {isSuperAdmin ? (
        <CompanySection
          control={control}
          companies={options.data?.companies ?? []}
          // Projects belong to one company: another company means choosing again.
          onChange={() => {
            setValue("project_id", "");
            setValue("responsible_user_id", "");
            setValue("contact_ids", []);
          }}
        />
      ) : null}
      <ProjectInfoSection control={control} projects={projects} emptyHint={projectHint} />
      <AgencySection control={control} agencies={agencies.data ?? []} isLoading={agencies.isFetching} />
      {recordType === "bond" ? (
        <BondSection
          control={control}
          companyId={isSuperAdmin ? companyId || null : null}
          hasLedger={!!permit?.bond_status}
        />
      ) : null}
      <ContactsSection
        control={control}
        companyId={isSuperAdmin ? companyId || null : null}
        isEnabled={!isSuperAdmin || !!companyId}
      />
      <TimelineSection control={control} />
      <RenewalSection
        control={control}
        staff={options.data?.staff ?? []}
        current={permit?.responsible ?? null}
      />
      <PermitFilePicker file={file} onChange={setFile} replaces={!!permit}>
        <PermitFormSuggestions
          control={control}
          setValue={setValue}
          file={file}
          companyId={isSuperAdmin ? companyId || null : null}
          needsCompany={isSuperAdmin && !companyId}
          hasLedger={!!permit?.bond_status}
        />
      </PermitFilePicker>
      <ArchivedSwitch control={control} />

      <Box sx={{ display: "flex", gap: 1.5, flexWrap: "wrap" }}>
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {permit ? "Update Permit" : "Create Permit"}
        </Button>
        <Button size="large" disabled={busy} onClick={() => guard.leave(backTo)}>
          Cancel
        </Button>
        {busy ? (
          <Typography variant="body2" color="text.secondary" sx={{ alignSelf: "center" }} role="status">
            {upload.isPending ? `Uploading the file... ${Math.round(progress * 100)}%` : "Saving..."}
          </Typography>
        ) : null}
      </Box>

      {permit ? <AuditTrailList permitId={permit.id} /> : null}
      {guard.prompt}
    </Box>
  );
}
