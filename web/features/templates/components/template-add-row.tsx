import { Controller, useForm } from "react-hook-form";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import AddIcon from "@mui/icons-material/Add";
import { TemplateFormSchema, type TemplateForm } from "../../../../shared/schemas/templates.ts";
import { ExpiryRuleFields } from "../../../components/expiry-rule-fields.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { errorMessage, isApiError } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { formResolver } from "../../../lib/form-resolver.ts";
import { useCreateTemplate } from "../api/save-template.ts";

const EMPTY: TemplateForm = {
  name: "",
  agency: "",
  status: "Required",
  expiry_rule: "fixed",
  expiry_days: "",
  renewal_lead_days: "",
};

/**
 * The add row: 'New Template Name', 'Agency', the Required/N/A switch and 'Add', and below them the
 * expiry defaults of the permits made from the template (issue 11). Values are trimmed; after a
 * success the row goes back to empty and Required; a failure is shown.
 */
export function TemplateAddRow({ companyId }: { companyId: string }) {
  const create = useCreateTemplate(companyId);
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { isSubmitting },
  } = useForm<TemplateForm>({ resolver: formResolver(TemplateFormSchema), defaultValues: EMPTY });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await create.mutateAsync(values);
      reset(EMPTY);
    } catch (error) {
      applyServerFieldErrors(error, setError, [
        "name",
        "agency",
        "status",
        "expiry_rule",
        "expiry_days",
        "renewal_lead_days",
      ]);
    }
  });

  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <Box
        component="form"
        noValidate
        onSubmit={onSubmit}
        aria-label="Add template"
        sx={{ display: "flex", flexWrap: "wrap", gap: 2, alignItems: "flex-start" }}
      >
        <FormTextField
          control={control}
          name="name"
          label="New Template Name"
          size="small"
          required
          fullWidth={false}
          sx={{ flex: "2 1 220px" }}
        />
        <FormTextField
          control={control}
          name="agency"
          label="Agency"
          size="small"
          fullWidth={false}
          sx={{ flex: "2 1 200px" }}
        />
        <Controller
          control={control}
          name="status"
          render={({ field }) => (
            <FormControlLabel
              sx={{ minWidth: 130, mt: 0.5 }}
              control={
                <Switch
                  checked={field.value === "Required"}
                  onChange={(event) => field.onChange(event.target.checked ? "Required" : "N/A")}
                  slotProps={{ input: { "aria-label": "Required" } }}
                />
              }
              label={field.value}
            />
          )}
        />
        <Button
          type="submit"
          variant="contained"
          startIcon={<AddIcon />}
          disabled={isSubmitting}
          sx={{ mt: 0.25 }}
        >
          Add
        </Button>
        <Box
          role="group"
          aria-label="Expiry defaults"
          sx={{ flexBasis: "100%", display: "flex", flexWrap: "wrap", gap: 2, alignItems: "flex-start" }}
        >
          <ExpiryRuleFields
            control={control}
            size="small"
            showHints={false}
            fieldSx={{ flex: "1 1 200px" }}
          />
        </Box>
        {create.isError && !(isApiError(create.error) && create.error.fields) ? (
          <Alert severity="error" sx={{ flexBasis: "100%" }}>
            {errorMessage(create.error)}
          </Alert>
        ) : null}
      </Box>
    </Paper>
  );
}
