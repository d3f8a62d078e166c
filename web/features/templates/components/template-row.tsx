import { useState } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormHelperText from "@mui/material/FormHelperText";
import IconButton from "@mui/material/IconButton";
import Switch from "@mui/material/Switch";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import {
  TemplateFormSchema,
  type Template,
  type TemplateForm,
} from "../../../../shared/schemas/templates.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { errorMessage, isApiError } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { usePatchTemplate, useUpdateTemplate } from "../api/save-template.ts";

interface RowProps {
  template: Template;
  companyId: string;
}

/** One template: displayed, or in inline edit (name and agency, with Save and Cancel). */
export function TemplateRow({
  template,
  companyId,
  onDelete,
}: RowProps & { onDelete: (template: Template) => void }) {
  const [isEditing, setIsEditing] = useState(false);
  return (
    <TableRow hover sx={template.active ? undefined : { "& td": { color: "text.secondary" } }}>
      {isEditing ? (
        <EditCells template={template} companyId={companyId} onDone={() => setIsEditing(false)} />
      ) : (
        <>
          <TableCell sx={{ fontWeight: 500 }}>{template.name}</TableCell>
          <TableCell>{template.agency || "—"}</TableCell>
          <SwitchCells template={template} companyId={companyId} isEditing={false} />
          <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
            {template.can.edit ? (
              <Tooltip title="Edit">
                <IconButton
                  size="small"
                  aria-label={`Edit ${template.name}`}
                  onClick={() => setIsEditing(true)}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            ) : null}
            {template.can.delete ? (
              <Tooltip title="Delete">
                <IconButton
                  size="small"
                  aria-label={`Delete ${template.name}`}
                  onClick={() => onDelete(template)}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            ) : null}
          </TableCell>
        </>
      )}
    </TableRow>
  );
}

/** The Status switch (Required or N/A) and the Active switch, each saved at once; off while editing. */
function SwitchCells({ template, companyId, isEditing }: RowProps & { isEditing: boolean }) {
  const patch = usePatchTemplate(companyId);
  const isDisabled = isEditing || !template.can.edit;
  return (
    <>
      <TableCell sx={{ whiteSpace: "nowrap" }}>
        <Box sx={{ display: "inline-flex", alignItems: "center" }}>
          <Switch
            size="small"
            checked={template.status === "Required"}
            disabled={isDisabled}
            onChange={(event) =>
              patch.mutate({ id: template.id, status: event.target.checked ? "Required" : "N/A" })
            }
            slotProps={{ input: { "aria-label": `Required: ${template.name}` } }}
          />
          <Typography component="span" variant="body2" sx={{ ml: 0.5 }}>
            {template.status}
          </Typography>
        </Box>
      </TableCell>
      <TableCell>
        <Tooltip title={template.active ? "New projects get this permit" : "New projects skip this template"}>
          <span>
            <Switch
              size="small"
              checked={template.active}
              disabled={isDisabled}
              onChange={(event) => patch.mutate({ id: template.id, active: event.target.checked })}
              slotProps={{ input: { "aria-label": `Active: ${template.name}` } }}
            />
          </span>
        </Tooltip>
      </TableCell>
    </>
  );
}

/**
 * The edit form spans several cells of one row, and a <form> cannot sit between <tr> and <td>,
 * so the inputs and the Save button join an empty form by its id.
 */
function EditCells({ template, companyId, onDone }: RowProps & { onDone: () => void }) {
  const update = useUpdateTemplate(companyId);
  const formId = `template-edit-${template.id}`;
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm<TemplateForm>({
    resolver: zodResolver(TemplateFormSchema),
    defaultValues: { name: template.name, agency: template.agency ?? "", status: template.status },
  });
  const onSubmit = handleSubmit(async ({ name, agency }) => {
    try {
      await update.mutateAsync({ id: template.id, name, agency });
      onDone();
    } catch (error) {
      applyServerFieldErrors(error, setError, ["name", "agency"]);
    }
  });
  return (
    <>
      <TableCell>
        <form id={formId} noValidate onSubmit={onSubmit} />
        <FormTextField
          control={control}
          name="name"
          label="Permit Name"
          size="small"
          required
          autoFocus
          htmlInputProps={{ form: formId }}
        />
      </TableCell>
      <TableCell>
        <FormTextField
          control={control}
          name="agency"
          label="Agency"
          size="small"
          htmlInputProps={{ form: formId }}
        />
      </TableCell>
      <SwitchCells template={template} companyId={companyId} isEditing />
      <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
        <Box sx={{ display: "inline-flex", gap: 1 }}>
          <Button size="small" variant="contained" type="submit" form={formId} disabled={isSubmitting}>
            Save
          </Button>
          <Button size="small" onClick={onDone} disabled={isSubmitting}>
            Cancel
          </Button>
        </Box>
        {update.isError && !(isApiError(update.error) && update.error.fields) ? (
          <FormHelperText error>{errorMessage(update.error)}</FormHelperText>
        ) : null}
      </TableCell>
    </>
  );
}
