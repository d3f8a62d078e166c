import { useState } from "react";
import { useFieldArray, useForm, useWatch, type Control } from "react-hook-form";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import Add from "@mui/icons-material/Add";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import {
  CONDITION_TITLE_MAX,
  DEFAULT_EVENT_KINDS,
  EVENT_KIND_MAX,
  EVERY_UNIT_LABELS,
  EVERY_UNITS,
  EVIDENCE_KINDS,
  EVIDENCE_LABELS,
  MILESTONE_NAME_MAX,
  OFFSET_UNIT_LABELS,
  OFFSET_UNITS,
  SCHEDULE_KINDS,
  SCHEDULE_LABELS,
  type EvidenceKind,
  type ScheduleKind,
} from "../../../../shared/domain/conditions.ts";
import {
  TemplateConditionInputSchema,
  type TemplateCondition,
  type TemplateConditionInput,
} from "../../../../shared/schemas/conditions.ts";
import type { Template } from "../../../../shared/schemas/templates.ts";
import { DialogField, StepDialog, full } from "../../../components/dialog-kit/index.ts";
import { isApiError } from "../../../lib/api.ts";
import { useUpdateTemplate } from "../api/save-template.ts";

/** A template condition as typed (relative dates: after the project starts, or around its events). */
interface Row {
  title: string;
  description: string;
  evidence: EvidenceKind;
  schedule: ScheduleKind;
  dueDays: string;
  interval: string;
  unit: string;
  offsetAmount: string;
  offsetUnit: string;
  milestoneName: string;
  eventKind: string;
}
type Values = { conditions: Row[] };

const EMPTY_ROW: Row = {
  title: "",
  description: "",
  evidence: "none",
  schedule: "once",
  dueDays: "",
  interval: "1",
  unit: "weeks",
  offsetAmount: "",
  offsetUnit: "hours",
  milestoneName: "",
  eventKind: "",
};

const str = (n: number | null) => (n === null ? "" : String(n));
const rowOf = (c: TemplateCondition): Row => ({
  title: c.title,
  description: c.description ?? "",
  evidence: c.evidence,
  schedule: c.schedule,
  dueDays: str(c.dueDays),
  interval: str(c.interval) || "1",
  unit: c.unit ?? "weeks",
  offsetAmount: str(c.offsetAmount),
  offsetUnit: c.offsetUnit ?? "hours",
  milestoneName: c.milestoneName ?? "",
  eventKind: c.eventKind ?? "",
});
const num = (v: string) => (v.trim() === "" ? null : Number.isFinite(Number(v)) ? Number(v) : v);
const txt = (v: string) => (v.trim() === "" ? null : v);

/** The body of one row: the chosen schedule's fields, the others null. */
function bodyOf(r: Row): TemplateConditionInput {
  const s = r.schedule;
  const offset = s === "before_event" || s === "after_event";
  return {
    title: r.title,
    description: txt(r.description),
    evidence: r.evidence,
    schedule: s,
    dueDays: s === "once" ? (num(r.dueDays) as number | null) : null,
    interval: s === "every" ? (num(r.interval) as number | null) : null,
    unit: s === "every" ? ((r.unit || null) as TemplateConditionInput["unit"]) : null,
    offsetAmount: offset ? (num(r.offsetAmount) as number | null) : null,
    offsetUnit: offset ? ((r.offsetUnit || null) as TemplateConditionInput["offsetUnit"]) : null,
    milestoneName: s === "before_event" ? txt(r.milestoneName) : null,
    eventKind: s === "after_event" ? txt(r.eventKind) : null,
  };
}

const opts = <K extends string>(keys: readonly K[], labels: Record<K, string>) =>
  keys.map((value) => ({ value, label: labels[value] }));

/** The template's conditions, as saved on it. */
export const templateConditions = (t: Template): TemplateCondition[] => t.conditions;

function ConditionRow({
  control,
  index,
  onRemove,
}: {
  control: Control<Values>;
  index: number;
  onRemove: () => void;
}) {
  const schedule = useWatch({ control, name: `conditions.${index}.schedule` });
  const name = <K extends keyof Row>(k: K) => `conditions.${index}.${k}` as const;
  const offset = schedule === "before_event" || schedule === "after_event";
  return (
    <Box
      component="li"
      aria-label={`Condition ${index + 1}`}
      sx={{
        ...full,
        display: "grid",
        gridTemplateColumns: { xs: "1fr", sm: "repeat(2, minmax(0, 1fr))" },
        gap: 1.5,
        p: 1.5,
        border: 1,
        borderColor: "divider",
        borderRadius: 2,
      }}
    >
      <Box sx={{ ...full, display: "flex", gap: 1, alignItems: "flex-start" }}>
        <DialogField
          control={control}
          name={name("title")}
          label="Title"
          required
          maxLength={CONDITION_TITLE_MAX}
        />
        <IconButton aria-label={`Remove condition ${index + 1}`} onClick={onRemove} sx={{ mt: 0.5 }}>
          <DeleteOutlined fontSize="small" />
        </IconButton>
      </Box>
      <DialogField
        control={control}
        name={name("evidence")}
        label="Evidence Required"
        options={opts(EVIDENCE_KINDS, EVIDENCE_LABELS)}
      />
      <DialogField
        control={control}
        name={name("schedule")}
        label="Schedule"
        options={opts(SCHEDULE_KINDS, SCHEDULE_LABELS)}
      />
      {schedule === "once" ? (
        <DialogField
          control={control}
          name={name("dueDays")}
          label="Due After Days"
          type="number"
          inputMode="numeric"
          helperText="Days after the project starts"
        />
      ) : null}
      {schedule === "every" ? (
        <>
          <DialogField
            control={control}
            name={name("interval")}
            label="Interval"
            type="number"
            inputMode="numeric"
          />
          <DialogField
            control={control}
            name={name("unit")}
            label="Unit"
            options={opts(EVERY_UNITS, EVERY_UNIT_LABELS)}
          />
        </>
      ) : null}
      {offset ? (
        <>
          <DialogField
            control={control}
            name={name("offsetAmount")}
            label="Within"
            type="number"
            inputMode="numeric"
            helperText={schedule === "before_event" ? "Before the milestone" : "After the event"}
          />
          <DialogField
            control={control}
            name={name("offsetUnit")}
            label="Hours or Days"
            options={opts(OFFSET_UNITS, OFFSET_UNIT_LABELS)}
          />
        </>
      ) : null}
      {schedule === "before_event" ? (
        <DialogField
          control={control}
          name={name("milestoneName")}
          label="Milestone"
          maxLength={MILESTONE_NAME_MAX}
          helperText="Its date is entered on each permit"
        />
      ) : null}
      {schedule === "after_event" ? (
        <DialogField
          control={control}
          name={name("eventKind")}
          label="Event"
          maxLength={EVENT_KIND_MAX}
          helperText={`e.g. ${DEFAULT_EVENT_KINDS[0]}`}
        />
      ) : null}
    </Box>
  );
}

/**
 * A template's 'Conditions' (issue 29): the conditions the permits made from it get, with relative
 * schedules (Once 'Due After Days', Every, Before a milestone, After an event). Saved all at once.
 */
export function TemplateConditionsDialog({
  template,
  companyId,
  onClose,
}: {
  template: Template;
  companyId: string;
  onClose: () => void;
}) {
  const update = useUpdateTemplate(companyId);
  const [error, setError] = useState<unknown>(null);
  const form = useForm<Values>({ defaultValues: { conditions: templateConditions(template).map(rowOf) } });
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "conditions" });
  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    form.clearErrors();
    const bodies = values.conditions.map(bodyOf);
    let invalid = false;
    bodies.forEach((body, i) => {
      const parsed = TemplateConditionInputSchema.safeParse(body);
      if (parsed.success) return;
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? "title") as keyof Row;
        form.setError(`conditions.${i}.${field}`, { type: "validate", message: issue.message });
        invalid = true;
      }
    });
    if (invalid) return;
    try {
      await update.mutateAsync({
        id: template.id,
        name: template.name,
        agency: template.agency,
        conditions: bodies,
      });
      onClose();
    } catch (saveError) {
      setError(saveError);
      if (isApiError(saveError) && saveError.fields)
        for (const [key, message] of Object.entries(saveError.fields))
          if (/^conditions\.\d+\.\w+$/.test(key))
            form.setError(key as `conditions.${number}.title`, { message });
    }
  });
  const fieldErrorsShown =
    isApiError(error) && error.fields && Object.keys(error.fields).some((k) => k.startsWith("conditions."));
  return (
    <StepDialog
      open
      title={`Conditions: ${template.name}`}
      intro="Permits made from this template get these conditions; their dates count from the project's start, or from a milestone or event entered later."
      submitLabel="Save Conditions"
      isBusy={form.formState.isSubmitting}
      error={fieldErrorsShown ? null : error}
      onSubmit={() => void onSubmit()}
      onClose={onClose}
    >
      {fields.length ? (
        <Box
          component="ul"
          aria-label="Template conditions"
          sx={{ ...full, listStyle: "none", m: 0, p: 0, display: "grid", gap: 1.5 }}
        >
          {fields.map((f, index) => (
            <ConditionRow key={f.id} control={form.control} index={index} onRemove={() => remove(index)} />
          ))}
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary" sx={full}>
          No conditions: permits made from this template start without any.
        </Typography>
      )}
      <Box sx={full}>
        <Button startIcon={<Add />} onClick={() => append({ ...EMPTY_ROW })}>
          Add Condition
        </Button>
      </Box>
      {fieldErrorsShown ? (
        <Alert severity="error" sx={full}>
          Some conditions need a fix: see the messages under their fields.
        </Alert>
      ) : null}
    </StepDialog>
  );
}
