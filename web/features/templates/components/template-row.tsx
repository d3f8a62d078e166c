import { createContext, useContext, useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormHelperText from "@mui/material/FormHelperText";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { EXPIRY_RULE_LABELS } from "../../../../shared/domain/lifecycle.ts";
import {
  TemplateFormSchema,
  type Template,
  type TemplateForm,
} from "../../../../shared/schemas/templates.ts";
import { ExpiryRuleFields } from "../../../components/expiry-rule-fields.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { RowActions } from "../../../components/row-actions.tsx";
import { errorMessage, isApiError } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { formResolver } from "../../../lib/form-resolver.ts";
import { usePatchTemplate, useUpdateTemplate } from "../api/save-template.ts";
import { templateConditions } from "./template-conditions-dialog.tsx";

interface RowProps {
  template: Template;
  companyId: string;
}

/** A row of the table, or on a phone a card whose parts are labelled (issue 14). */
export type TemplateLayout = "row" | "card";
const LayoutContext = createContext<TemplateLayout>("row");

/** One part of a template: a table cell in a row, a labelled line in a card. */
function Slot({
  label,
  align,
  sx,
  children,
}: {
  label: string;
  align?: "right";
  sx?: object;
  children: ReactNode;
}) {
  const layout = useContext(LayoutContext);
  if (layout === "row") {
    return (
      <TableCell align={align} sx={sx}>
        {children}
      </TableCell>
    );
  }
  // In a card the actions need no label; the name is the card's heading.
  if (label === "Actions") {
    return (
      <Box sx={{ display: "flex", justifyContent: "flex-end", flexWrap: "wrap", gap: 1, mt: 1 }}>
        {children}
      </Box>
    );
  }
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, minHeight: 44, ...sx }}>
      <Box component="span" sx={{ color: "text.secondary", width: 112, flexShrink: 0, fontSize: "0.875rem" }}>
        {label}
      </Box>
      <Box sx={{ minWidth: 0, flex: 1, overflowWrap: "anywhere" }}>{children}</Box>
    </Box>
  );
}

/** The template's expiry defaults in words: "180 days after inspection · renew 30 days before". */
export function expiryDefaultsText(t: Pick<Template, "expiry_rule" | "expiry_days" | "renewal_lead_days">) {
  const rule =
    t.expiry_rule === "after_inspection" && t.expiry_days
      ? `${t.expiry_days} days after last passed inspection`
      : EXPIRY_RULE_LABELS[t.expiry_rule];
  return t.renewal_lead_days === null ? rule : `${rule} · renew ${t.renewal_lead_days} days before`;
}

/** One template: displayed, or in inline edit (name, agency and expiry defaults, with Save and Cancel). */
export function TemplateRow({
  template,
  companyId,
  onDelete,
  onConditions,
  layout = "row",
}: RowProps & {
  onDelete: (template: Template) => void;
  /** Issue 29: opens the template's Conditions. */
  onConditions: (template: Template) => void;
  layout?: TemplateLayout;
}) {
  const conditionCount = templateConditions(template).length;
  const [isEditing, setIsEditing] = useState(false);
  const body = isEditing ? (
    <EditCells template={template} companyId={companyId} onDone={() => setIsEditing(false)} />
  ) : (
    <>
      <Slot label="Permit Name" sx={{ fontWeight: 500 }}>
        {template.name}
      </Slot>
      <Slot label="Agency">{template.agency || "—"}</Slot>
      <Slot label="Expiry Defaults">{expiryDefaultsText(template)}</Slot>
      <SwitchCells template={template} companyId={companyId} isEditing={false} />
      <Slot label="Actions" align="right" sx={{ whiteSpace: "nowrap" }}>
        <RowActions
          name={template.name}
          can={template.can}
          onEdit={() => setIsEditing(true)}
          onDelete={() => onDelete(template)}
          size={layout === "row" ? "small" : undefined}
          isInline
        >
          {template.can.edit ? (
            <Button size="small" sx={{ color: "primary.dark" }} onClick={() => onConditions(template)}>
              Conditions{conditionCount ? ` (${conditionCount})` : ""}
            </Button>
          ) : null}
        </RowActions>
      </Slot>
    </>
  );
  if (layout === "card") {
    return (
      <LayoutContext.Provider value="card">
        <Paper
          component="li"
          variant="outlined"
          aria-label={template.name}
          sx={{ p: 1.5, ...(template.active ? {} : { color: "text.secondary", bgcolor: "action.hover" }) }}
        >
          {body}
        </Paper>
      </LayoutContext.Provider>
    );
  }
  return (
    <TableRow hover sx={template.active ? undefined : { "& td": { color: "text.secondary" } }}>
      {body}
    </TableRow>
  );
}

/** The Status switch (Required or N/A) and the Active switch, each saved at once; off while editing. */
function SwitchCells({ template, companyId, isEditing }: RowProps & { isEditing: boolean }) {
  const patch = usePatchTemplate(companyId);
  const isDisabled = isEditing || !template.can.edit;
  // A phone's card gets the full-size switch: a 44 px target.
  const size = useContext(LayoutContext) === "card" ? "medium" : "small";
  return (
    <>
      <Slot label="Status" sx={{ whiteSpace: "nowrap" }}>
        <Box sx={{ display: "inline-flex", alignItems: "center" }}>
          <Switch
            size={size}
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
      </Slot>
      <Slot label="Active">
        <Tooltip title={template.active ? "New projects get this permit" : "New projects skip this template"}>
          <span>
            <Switch
              size={size}
              checked={template.active}
              disabled={isDisabled}
              onChange={(event) => patch.mutate({ id: template.id, active: event.target.checked })}
              slotProps={{ input: { "aria-label": `Active: ${template.name}` } }}
            />
          </span>
        </Tooltip>
      </Slot>
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
    resolver: formResolver(TemplateFormSchema),
    defaultValues: {
      name: template.name,
      agency: template.agency ?? "",
      status: template.status,
      expiry_rule: template.expiry_rule,
      expiry_days: template.expiry_days === null ? "" : String(template.expiry_days),
      renewal_lead_days: template.renewal_lead_days === null ? "" : String(template.renewal_lead_days),
    },
  });
  const onSubmit = handleSubmit(async ({ name, agency, expiry_rule, expiry_days, renewal_lead_days }) => {
    try {
      await update.mutateAsync({
        id: template.id,
        name,
        agency,
        expiry_rule,
        expiry_days,
        renewal_lead_days,
      });
      onDone();
    } catch (error) {
      applyServerFieldErrors(error, setError, [
        "name",
        "agency",
        "expiry_rule",
        "expiry_days",
        "renewal_lead_days",
      ]);
    }
  });
  return (
    <>
      <Slot label="Permit Name">
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
      </Slot>
      <Slot label="Agency">
        <FormTextField
          control={control}
          name="agency"
          label="Agency"
          size="small"
          htmlInputProps={{ form: formId }}
        />
      </Slot>
      <Slot label="Expiry Defaults">
        <Box sx={{ display: "grid", gap: 1.5, minWidth: 200, py: 0.5 }}>
          <ExpiryRuleFields control={control} size="small" showHints={false} />
        </Box>
      </Slot>
      <SwitchCells template={template} companyId={companyId} isEditing />
      <Slot label="Actions" align="right" sx={{ whiteSpace: "nowrap" }}>
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
      </Slot>
    </>
  );
}
