import { useState } from "react";
import Button from "@mui/material/Button";
import Thunderstorm from "@mui/icons-material/ThunderstormOutlined";
import { DEFAULT_EVENT_KINDS, EVENT_KIND_MAX, EVENT_NOTE_MAX } from "../../../../shared/domain/conditions.ts";
import { EventInputSchema } from "../../../../shared/schemas/conditions.ts";
import { DialogField, NoteField, StepDialog, useStepForm } from "../../../components/dialog-kit/index.ts";
import { useHasOpened } from "../../../lib/on-demand.ts";
import { useCurrentUser } from "../../../lib/session.tsx";
import { useLogEvent, useProjectEvents } from "../api/events.ts";
import { KindField } from "./kind-field.tsx";

type EventValues = { kind: string; occurredAt: string; note: string };

/** Now as a datetime-local value ("YYYY-MM-DDTHH:mm") in a time zone (the company's). */
export function nowLocalIn(timeZone: string, now = new Date()): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).formatToParts(now);
  } catch {
    parts = new Intl.DateTimeFormat("en-US", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).formatToParts(now);
  }
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "00";
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}`;
}

function LogEventDialog({
  projectId,
  open,
  openedAt,
  timeZone,
  onClose,
}: {
  projectId: string;
  open: boolean;
  /** When the dialog was opened, its Date and Time to start with. */
  openedAt: string;
  timeZone: string;
  onClose: () => void;
}) {
  const events = useProjectEvents(projectId);
  const logEvent = useLogEvent(projectId);
  const { control, dialog } = useStepForm<EventValues>({
    empty: { kind: "", occurredAt: openedAt, note: "" },
    schema: EventInputSchema,
    save: (values) => logEvent.mutateAsync(values),
    onClose,
  });
  return (
    <StepDialog
      {...dialog}
      open={open}
      title="Log Event"
      intro="Every condition of this project's open permits that follows this kind of event gets a task due within its window."
      submitLabel="Log Event"
    >
      <KindField
        control={control}
        name="kind"
        label="Kind"
        kinds={events.data?.eventKinds ?? DEFAULT_EVENT_KINDS}
        maxLength={EVENT_KIND_MAX}
        helperText="e.g. Rain ≥ 0.25 in"
      />
      <DialogField
        control={control}
        name="occurredAt"
        label="Date and Time"
        type="datetime-local"
        required
        slotProps={{ inputLabel: { shrink: true } }}
        helperText={`In ${timeZone}`}
      />
      <NoteField control={control} name="note" label="Note" maxLength={EVENT_NOTE_MAX} />
    </StepDialog>
  );
}

/** 'Log Event' on the project dashboard (staff who may edit its permits), with its dialog. */
export function LogEventButton({ projectId }: { projectId: string }) {
  const me = useCurrentUser();
  const timeZone = me.company?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const hasOpened = useHasOpened(openedAt !== null);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<Thunderstorm />}
        onClick={() => setOpenedAt(nowLocalIn(timeZone))}
        sx={{ flexShrink: 0 }}
      >
        Log Event
      </Button>
      {hasOpened ? (
        <LogEventDialog
          projectId={projectId}
          open={openedAt !== null}
          openedAt={openedAt ?? ""}
          timeZone={timeZone}
          onClose={() => setOpenedAt(null)}
        />
      ) : null}
    </>
  );
}
