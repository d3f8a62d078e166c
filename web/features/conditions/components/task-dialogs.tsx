import { useState } from "react";
import Box from "@mui/material/Box";
import FormHelperText from "@mui/material/FormHelperText";
import Typography from "@mui/material/Typography";
import PhotoCamera from "@mui/icons-material/PhotoCamera";
import { TASK_NOTE_MAX, TASK_REASON_MAX, type EvidenceKind } from "../../../../shared/domain/conditions.ts";
import {
  CompleteTaskFieldsSchema,
  NotApplicableInputSchema,
  type Condition,
  type Task,
} from "../../../../shared/schemas/conditions.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import {
  FileChooser,
  NoteField,
  StepDialog,
  full,
  useStepForm,
} from "../../../components/dialog-kit/index.ts";
import { ApiError, errorMessage, isApiError } from "../../../lib/api.ts";
import { useCompleteTask, useRemoveCondition, useTaskNotApplicable } from "../api/conditions.ts";
import { dueText } from "./task-text.ts";

export type TaskTarget = { condition: Condition; task: Task };

const REQUIRED: Record<EvidenceKind, string | null> = {
  none: null,
  file: "Evidence is required: attach a file",
  photo: "Evidence is required: attach a photo",
};

/** A message the server put on a field this dialog has no input for: the evidence file's. */
function fileMessage(error: unknown): string | null {
  if (!isApiError(error) || !error.fields) return null;
  const other = Object.entries(error.fields).find(([name]) => name !== "note");
  return other ? other[1] : null;
}

/**
 * 'Complete Task': a 'Note' and the evidence the condition asks for. A photo's input offers the
 * phone's (back) camera; a file's takes any file the attachments take. Saved, the next task shows.
 */
export function CompleteTaskDialog({
  permitId,
  target,
  timeZone,
  onClose,
}: {
  permitId: string;
  target: TaskTarget | null;
  timeZone: string;
  onClose: () => void;
}) {
  const complete = useCompleteTask(permitId);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const evidence = target?.condition.evidence ?? "none";
  const { control, dialog } = useStepForm<{ note: string }>({
    empty: { note: "" },
    schema: CompleteTaskFieldsSchema,
    save: async ({ note }) => {
      if (!target) return;
      const required = REQUIRED[evidence];
      if (required && !file) throw new ApiError(400, "VALIDATION", required, { file: required });
      setProgress(file ? 0 : null);
      try {
        await complete.mutateAsync({ taskId: target.task.id, note, file, onProgress: setProgress });
      } finally {
        setProgress(null);
      }
    },
    onClose: () => {
      setFile(null);
      onClose();
    },
  });
  // A photo chosen since the refusal answers it.
  const fileError = file ? null : fileMessage(dialog.error);
  const isPhoto = evidence === "photo";
  return (
    <StepDialog
      {...dialog}
      open={!!target}
      title="Complete Task"
      intro={target ? `${target.condition.title}: ${dueText(target.task, timeZone)}.` : undefined}
      submitLabel="Save"
    >
      <NoteField control={control} name="note" label="Note" maxLength={TASK_NOTE_MAX} />
      <Box sx={{ ...full, display: "grid", gap: 0.75 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {isPhoto ? "Photo" : "Evidence file"}
          {evidence === "none" ? " (optional)" : " (required)"}
        </Typography>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap", minWidth: 0 }}>
          <FileChooser
            file={file}
            onChange={setFile}
            label={isPhoto ? "Photo" : "Evidence file"}
            buttonLabel={isPhoto ? "Take or Choose Photo" : "Attach File"}
            icon={isPhoto ? <PhotoCamera /> : undefined}
            hint={isPhoto ? "A photo from the camera or the gallery" : "Any file the permit's files take"}
            accept={isPhoto ? "image/*" : undefined}
            capture={isPhoto ? "environment" : undefined}
            disabled={dialog.isBusy}
            showSize
            nameWidth={200}
          />
        </Box>
        {progress !== null ? (
          <Typography variant="body2" color="text.secondary" role="status">
            Uploading... {Math.round(progress * 100)}%
          </Typography>
        ) : null}
        {fileError ? (
          <FormHelperText error role="alert">
            {fileError}
          </FormHelperText>
        ) : null}
      </Box>
    </StepDialog>
  );
}

/** 'Not Applicable' asks why; an 'Every' condition's next task follows. */
export function NotApplicableDialog({
  permitId,
  target,
  timeZone,
  onClose,
}: {
  permitId: string;
  target: TaskTarget | null;
  timeZone: string;
  onClose: () => void;
}) {
  const markNa = useTaskNotApplicable(permitId);
  const { control, dialog } = useStepForm<{ reason: string }>({
    empty: { reason: "" },
    schema: NotApplicableInputSchema,
    save: async ({ reason }) => {
      if (target) await markNa.mutateAsync({ taskId: target.task.id, reason });
    },
    onClose,
  });
  return (
    <StepDialog
      {...dialog}
      open={!!target}
      title="Not Applicable"
      intro={
        target
          ? `${target.condition.title}: ${dueText(target.task, timeZone)}. Say why it does not apply.`
          : undefined
      }
      submitLabel="Save"
    >
      <NoteField control={control} name="reason" label="Reason" required maxLength={TASK_REASON_MAX} />
    </StepDialog>
  );
}

/** 'Remove' asks first: the condition's open tasks end as Not Applicable; the done ones stay audited. */
export function RemoveConditionDialog({
  permitId,
  target,
  onClose,
}: {
  permitId: string;
  target: Condition | null;
  onClose: () => void;
}) {
  const remove = useRemoveCondition(permitId);
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={!!target}
      title="Remove Condition"
      message={`Remove the condition "${target?.title ?? ""}"?`}
      details="Its open tasks end as Not Applicable. What was done stays in the audit trail."
      confirmLabel="Remove"
      isBusy={remove.isPending}
      error={remove.isError ? errorMessage(remove.error) : undefined}
      onConfirm={() => target && remove.mutate(target, { onSuccess: close })}
      onClose={close}
    />
  );
}
