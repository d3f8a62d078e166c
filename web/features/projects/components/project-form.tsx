import { useForm, useWatch } from "react-hook-form";
import { Link as RouterLink, useNavigate } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import {
  ProjectFormSchema,
  type Project,
  type ProjectForm as ProjectFormValues,
} from "../../../../shared/schemas/projects.ts";
import { CompanyField } from "../../companies/index.ts";
import { useUnsavedChanges } from "../../../components/unsaved-changes.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { errorMessage, isApiError } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { useNotify } from "../../../lib/notify.ts";
import { paths } from "../../../lib/paths.ts";
import { useCan, useCurrentUser } from "../../../lib/session.tsx";
import { formResolver } from "../../../lib/form-resolver.ts";
import { useCreateProject, useUpdateProject } from "../api/save-project.ts";
import { plural } from "../../../lib/format.ts";
import { ClientNameField } from "./client-name-field.tsx";

const FIELDS = ["company_id", "project_number", "name", "client_name"] as const;

/**
 * The project add/edit form (spec section 2): Project Number, Project Name and Client, all
 * required; 'Save Project' ('Saving...' while busy); back to /admin/projects on success.
 */
export function ProjectForm({ project }: { project?: Project }) {
  const me = useCurrentUser();
  const seesCompanies = useCan("allCompanies");
  const picksCompany = seesCompanies && !project;
  const navigate = useNavigate();
  const notify = useNotify();
  const create = useCreateProject();
  const update = useUpdateProject(project?.id ?? "");
  const save = project ? update : create;
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting, isDirty },
  } = useForm<ProjectFormValues>({
    resolver: formResolver(ProjectFormSchema),
    defaultValues: {
      company_id: project?.company_id ?? me.companyId ?? "",
      project_number: project?.project_number ?? "",
      name: project?.name ?? "",
      client_name: project?.client_name ?? "",
    },
  });
  const companyId = useWatch({ control, name: "company_id" });
  const guard = useUnsavedChanges(isDirty);

  const onSubmit = handleSubmit(async (values) => {
    try {
      if (project) {
        await update.mutateAsync({
          name: values.name,
          project_number: values.project_number,
          client_name: values.client_name,
        });
      } else {
        const created = await create.mutateAsync(values);
        notify(
          created.permit_count
            ? `Project created with ${plural(created.permit_count, "permit")} from the templates.`
            : "Project created.",
          "success",
        );
      }
      await navigate(paths.projects);
    } catch (error) {
      applyServerFieldErrors(error, setError, FIELDS);
    }
  });

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 640 }}>
      <Box
        component="form"
        noValidate
        onSubmit={onSubmit}
        sx={{ display: "flex", flexDirection: "column", gap: 2.5 }}
      >
        {save.isError && !(isApiError(save.error) && save.error.fields) ? (
          <Alert severity="error">{errorMessage(save.error)}</Alert>
        ) : null}
        {picksCompany ? (
          <CompanyField control={control} name="company_id" required fullWidth />
        ) : project && seesCompanies ? (
          <TextField label="Company" value={project.company_name} disabled fullWidth />
        ) : null}
        <FormTextField control={control} name="project_number" label="Project Number" required autoFocus />
        <FormTextField control={control} name="name" label="Project Name" required />
        <ClientNameField control={control} name="client_name" companyId={companyId} required />
        <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end" }}>
          {/* A link: the unsaved-changes guard asks before it is followed. */}
          <Button component={RouterLink} to={paths.projects} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {isSubmitting ? "Saving..." : "Save Project"}
          </Button>
        </Box>
      </Box>
      {guard.prompt}
    </Paper>
  );
}
