import { Controller, useForm, useWatch } from "react-hook-form";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { DEFAULT_PROJECT_STATUS, PROJECT_STATUSES } from "../../../../shared/domain/statuses.ts";
import { ProjectQuickFormSchema, type ProjectQuickForm } from "../../../../shared/schemas/projects.ts";
import { CompanyField } from "../../companies/index.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { errorMessage, isApiError } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { useNotify } from "../../../lib/notify.ts";
import { useCan, useCurrentUser } from "../../../lib/session.tsx";
import { formResolver } from "../../../lib/form-resolver.ts";
import { useCreateProject } from "../api/save-project.ts";
import { plural } from "../../../lib/format.ts";
import { ClientNameField } from "./client-name-field.tsx";

const FIELDS = ["company_id", "name", "project_number", "client_name", "status"] as const;

/**
 * 'Create New Project' (spec section 2): only the name is required; status starts at Not Started.
 * Mounted while open, so every opening starts from empty fields.
 */
export function CreateProjectDialog({
  onClose,
  defaultCompanyId,
}: {
  onClose: () => void;
  defaultCompanyId: string;
}) {
  const me = useCurrentUser();
  const picksCompany = useCan("allCompanies");
  const notify = useNotify();
  const create = useCreateProject();
  const defaults: ProjectQuickForm = {
    company_id: picksCompany ? defaultCompanyId : (me.companyId ?? ""),
    name: "",
    project_number: "",
    client_name: "",
    status: DEFAULT_PROJECT_STATUS,
  };
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm<ProjectQuickForm>({ resolver: formResolver(ProjectQuickFormSchema), defaultValues: defaults });
  const companyId = useWatch({ control, name: "company_id" });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const project = await create.mutateAsync(values);
      notify(
        project.permit_count
          ? `Project created with ${plural(project.permit_count, "permit")} from the templates.`
          : "Project created.",
        "success",
      );
      onClose();
    } catch (error) {
      applyServerFieldErrors(error, setError, FIELDS);
    }
  });

  return (
    <Dialog
      open
      onClose={isSubmitting ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="create-project-title"
    >
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="create-project-title">Create New Project</DialogTitle>
        <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2.5, pt: "8px !important" }}>
          {create.isError && !(isApiError(create.error) && create.error.fields) ? (
            <Alert severity="error">{errorMessage(create.error)}</Alert>
          ) : null}
          {picksCompany ? <CompanyField control={control} name="company_id" required fullWidth /> : null}
          <FormTextField control={control} name="name" label="Project Name" required autoFocus />
          <FormTextField control={control} name="project_number" label="Project Number" />
          <ClientNameField control={control} name="client_name" companyId={companyId} />
          <Controller
            control={control}
            name="status"
            render={({ field }) => (
              <TextField select label="Status" {...field} fullWidth>
                {PROJECT_STATUSES.map((status) => (
                  <MenuItem key={status} value={status}>
                    {status}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {isSubmitting ? "Saving..." : "Create Project"}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
