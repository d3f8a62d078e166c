import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { TASK_STATUS_LABELS } from "../../../../shared/domain/conditions.ts";
import type { Task } from "../../../../shared/schemas/conditions.ts";
import { formatMomentIn } from "../../../lib/format.ts";
import { evidenceUrl } from "../api/conditions.ts";
import { dueWhen } from "./task-text.ts";

function StatusChip({ task }: { task: Task }) {
  if (task.status === "open")
    return task.overdue ? (
      <Chip size="small" color="error" label="Overdue" sx={{ fontWeight: 600 }} />
    ) : (
      <Chip size="small" color="primary" variant="outlined" label="Open" />
    );
  return (
    <Chip
      size="small"
      color={task.status === "done" ? "success" : "default"}
      variant={task.status === "done" ? "filled" : "outlined"}
      label={TASK_STATUS_LABELS[task.status]}
    />
  );
}

/** What happened to a closed task: who completed it and when, the note, the evidence; or why it did not apply. */
function Outcome({ task, timeZone }: { task: Task; timeZone: string }) {
  if (task.status === "open") return null;
  const when = task.completedAt ? formatMomentIn(task.completedAt, timeZone) : null;
  return (
    <Typography component="div" variant="caption" sx={{ color: "text.secondary", overflowWrap: "anywhere" }}>
      {task.status === "done"
        ? `Completed${task.completedByName ? ` by ${task.completedByName}` : ""}${when ? `, ${when}` : ""}`
        : `${task.reason ?? "Not Applicable"}${task.completedByName ? ` (${task.completedByName}${when ? `, ${when}` : ""})` : ""}`}
      {task.note ? (
        <Box component="span" sx={{ display: "block", whiteSpace: "pre-line", color: "text.primary" }}>
          {task.note}
        </Box>
      ) : null}
      {task.evidence ? (
        <Link
          href={evidenceUrl(task.id)}
          target="_blank"
          rel="noopener"
          sx={{ display: "inline-block", mt: 0.25 }}
        >
          {task.evidence.name}
        </Link>
      ) : null}
    </Typography>
  );
}

/**
 * One task under its condition: when it is due (overdue marked), its state, and for an open one
 * 'Complete' and 'Not Applicable' (who may). On a phone the buttons go on a row of their own.
 */
export function TaskRow({
  task,
  timeZone,
  canComplete,
  onComplete,
  onNotApplicable,
}: {
  task: Task;
  timeZone: string;
  canComplete: boolean;
  onComplete: () => void;
  onNotApplicable: () => void;
}) {
  const isOpen = task.status === "open";
  return (
    <Box
      component="li"
      sx={{
        display: "flex",
        flexWrap: "wrap",
        alignItems: "center",
        columnGap: 1.5,
        rowGap: 0.75,
        py: 1,
        borderTop: 1,
        borderColor: "divider",
      }}
    >
      <Box sx={{ flex: "1 1 180px", minWidth: 0 }}>
        <Typography
          variant="body2"
          sx={{
            fontWeight: isOpen ? 600 : 400,
            color: isOpen && task.overdue ? "error.main" : isOpen ? "text.primary" : "text.secondary",
          }}
        >
          Due {dueWhen(task, timeZone)}
          {isOpen && task.overdue ? " (overdue)" : ""}
          {task.event ? (
            <Box component="span" sx={{ fontWeight: 400, color: "text.secondary" }}>
              {` · after ${task.event.kind}, ${formatMomentIn(task.event.occurredAt, timeZone)}`}
            </Box>
          ) : null}
        </Typography>
        <Outcome task={task} timeZone={timeZone} />
      </Box>
      <StatusChip task={task} />
      {isOpen && canComplete ? (
        <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
          <Button size="small" variant="contained" onClick={onComplete}>
            Complete
          </Button>
          <Button size="small" onClick={onNotApplicable}>
            Not Applicable
          </Button>
        </Box>
      ) : null}
    </Box>
  );
}
