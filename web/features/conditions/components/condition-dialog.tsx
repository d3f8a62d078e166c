import { useWatch } from "react-hook-form";
import {
  CONDITION_DESCRIPTION_MAX,
  CONDITION_TITLE_MAX,
  EVENT_KIND_MAX,
  MILESTONE_NAME_MAX,
} from "../../../../shared/domain/conditions.ts";
import {
  ConditionInputSchema,
  type Condition,
  type PermitConditions,
} from "../../../../shared/schemas/conditions.ts";
import {
  ChoiceField,
  DialogField,
  NoteField,
  StepDialog,
  full,
  useStepForm,
} from "../../../components/dialog-kit/index.ts";
import { sameNames } from "../../../lib/form-errors.ts";
import { useSaveCondition } from "../api/conditions.ts";
import {
  conditionBody,
  conditionValues,
  emptyCondition,
  EVIDENCE_OPTIONS,
  FIELD_NAMES,
  OFFSET_UNIT_OPTIONS,
  SCHEDULE_OPTIONS,
  UNIT_OPTIONS,
  type ConditionValues,
} from "./condition-form.ts";
import { KindField } from "./kind-field.tsx";

const fieldOf = sameNames<ConditionValues>(FIELD_NAMES);

/**
 * 'Add Condition' (and editing one): Title, Description, Owner (the permit's responsible person
 * unless another is chosen), Evidence Required and the Schedule with the fields it needs.
 */
export function ConditionDialog({
  permitId,
  open,
  editing,
  data,
  responsibleName,
  today,
  onClose,
}: {
  permitId: string;
  open: boolean;
  /** The condition edited; null adds one. */
  editing: Condition | null;
  data: PermitConditions;
  responsibleName: string | null;
  today: string;
  onClose: () => void;
}) {
  const save = useSaveCondition(permitId, editing?.id ?? null);
  const { control, dialog } = useStepForm<ConditionValues>({
    empty: editing ? conditionValues(editing, today) : emptyCondition(today),
    schema: ConditionInputSchema,
    toBody: conditionBody,
    fieldOf,
    save: (values) => save.mutateAsync(conditionBody(values)),
    onClose,
  });
  const schedule = useWatch({ control, name: "schedule" });
  const owners = [
    {
      value: "",
      label: responsibleName ? `Responsible person (${responsibleName})` : "Responsible person",
    },
    ...data.owners.map((o) => ({ value: o.id, label: o.name })),
  ];
  // An owner who is no longer among the choices (left the company) still shows by name.
  if (editing?.owner && !data.owners.some((o) => o.id === editing.owner?.id))
    owners.push({ value: editing.owner.id, label: editing.owner.name });
  const offset = schedule === "before_event" || schedule === "after_event";
  return (
    <StepDialog
      {...dialog}
      open={open}
      title={editing ? "Edit Condition" : "Add Condition"}
      intro="A condition of approval becomes tasks with due dates, listed under it on this permit."
      submitLabel="Save Condition"
    >
      <DialogField
        control={control}
        name="title"
        label="Title"
        required
        maxLength={CONDITION_TITLE_MAX}
        sx={full}
      />
      <NoteField
        control={control}
        name="description"
        label="Description"
        maxLength={CONDITION_DESCRIPTION_MAX}
      />
      <DialogField control={control} name="ownerUserId" label="Owner" options={owners} />
      <DialogField control={control} name="evidence" label="Evidence Required" options={EVIDENCE_OPTIONS} />
      <ChoiceField control={control} name="schedule" label="Schedule" options={SCHEDULE_OPTIONS} />
      {schedule === "once" ? (
        <DialogField control={control} name="dueDate" label="Due Date" type="date" required />
      ) : null}
      {schedule === "every" ? (
        <>
          <DialogField
            control={control}
            name="interval"
            label="Interval"
            type="number"
            inputMode="numeric"
            required
          />
          <DialogField control={control} name="unit" label="Unit" options={UNIT_OPTIONS} required />
          <DialogField control={control} name="startsOn" label="Starting" type="date" required />
          <DialogField
            control={control}
            name="endsOn"
            label="Ends"
            type="date"
            helperText="Blank: until the permit closes"
          />
        </>
      ) : null}
      {offset ? (
        <>
          <DialogField
            control={control}
            name="offsetAmount"
            label="Within"
            type="number"
            inputMode="numeric"
            required
            helperText={schedule === "before_event" ? "Before the milestone" : "After the event"}
          />
          <DialogField
            control={control}
            name="offsetUnit"
            label="Hours or Days"
            options={OFFSET_UNIT_OPTIONS}
          />
        </>
      ) : null}
      {schedule === "before_event" ? (
        <>
          <DialogField
            control={control}
            name="milestoneName"
            label="Milestone"
            required
            maxLength={MILESTONE_NAME_MAX}
            placeholder="e.g. Concrete pour"
          />
          <DialogField
            control={control}
            name="milestoneAt"
            label="Milestone Date"
            type="datetime-local"
            required
            slotProps={{ inputLabel: { shrink: true } }}
            helperText={`In ${data.timeZone}`}
          />
        </>
      ) : null}
      {schedule === "after_event" ? (
        <KindField
          control={control}
          name="eventKind"
          label="Event"
          kinds={data.eventKinds}
          maxLength={EVENT_KIND_MAX}
          helperText="The kind of event logged on the project, e.g. Rain ≥ 0.25 in"
          sx={full}
        />
      ) : null}
    </StepDialog>
  );
}
