import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import Add from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import RuleOutlined from "@mui/icons-material/RuleOutlined";
import { EVIDENCE_LABELS } from "../../../../shared/domain/conditions.ts";
import type { Condition, PermitConditions } from "../../../../shared/schemas/conditions.ts";
import { DetailCard, EmptyState, PendingCard } from "../../../components/detail-card.tsx";
import { formatCount } from "../../../lib/format.ts";
import { useHasOpened } from "../../../lib/on-demand.ts";
import { usePermitConditions } from "../api/conditions.ts";
import { ConditionDialog } from "./condition-dialog.tsx";
import {
  CompleteTaskDialog,
  NotApplicableDialog,
  RemoveConditionDialog,
  type TaskTarget,
} from "./task-dialogs.tsx";
import { TaskRow } from "./task-row.tsx";

/** How many closed tasks show under a condition until 'Show all' is pressed. */
const CLOSED_SHOWN = 2;

function ConditionItem({
  condition,
  data,
  onEdit,
  onRemove,
  onComplete,
  onNotApplicable,
}: {
  condition: Condition;
  data: PermitConditions;
  onEdit: () => void;
  onRemove: () => void;
  onComplete: (t: TaskTarget) => void;
  onNotApplicable: (t: TaskTarget) => void;
}) {
  const [showAll, setShowAll] = useState(false);
  const open = condition.tasks.filter((t) => t.status === "open");
  const closed = condition.tasks.filter((t) => t.status !== "open");
  const shown = [...open, ...(showAll ? closed : closed.slice(0, CLOSED_SHOWN))];
  const hidden = closed.length - Math.min(closed.length, showAll ? closed.length : CLOSED_SHOWN);
  const older = condition.closedTaskCount - closed.length;
  const overdue = open.filter((t) => t.overdue).length;
  return (
    <Box
      component="li"
      aria-label={condition.title}
      sx={{
        p: { xs: 1.25, sm: 1.5 },
        border: 1,
        borderColor: overdue ? "error.main" : "divider",
        borderRadius: 2,
      }}
    >
      <Box sx={{ display: "flex", gap: 1, alignItems: "flex-start" }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="body1" component="h3" sx={{ fontWeight: 650, overflowWrap: "anywhere" }}>
            {condition.title}
          </Typography>
          <Typography variant="body2" sx={{ color: "text.secondary", overflowWrap: "anywhere" }}>
            {condition.scheduleText}
          </Typography>
          <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.75, mt: 0.75, alignItems: "center" }}>
            <Typography variant="caption" sx={{ color: "text.secondary" }}>
              Owner: {condition.owner?.name ?? "Responsible person"}
            </Typography>
            {condition.evidence !== "none" ? (
              <Chip
                size="small"
                variant="outlined"
                label={`${EVIDENCE_LABELS[condition.evidence]} required`}
              />
            ) : null}
            {overdue ? <Chip size="small" color="error" label={`${formatCount(overdue)} overdue`} /> : null}
          </Box>
        </Box>
        {data.can.manage ? (
          <Box sx={{ display: "flex", flexShrink: 0 }}>
            <IconButton aria-label={`Edit ${condition.title}`} onClick={onEdit}>
              <EditOutlined fontSize="small" />
            </IconButton>
            <IconButton aria-label={`Remove ${condition.title}`} onClick={onRemove}>
              <DeleteOutline fontSize="small" />
            </IconButton>
          </Box>
        ) : null}
      </Box>
      {condition.description ? (
        <Typography variant="body2" sx={{ mt: 0.75, whiteSpace: "pre-line", overflowWrap: "anywhere" }}>
          {condition.description}
        </Typography>
      ) : null}
      {shown.length ? (
        <Box
          component="ul"
          aria-label={`Tasks of ${condition.title}`}
          sx={{ listStyle: "none", m: 0, mt: 1, p: 0 }}
        >
          {shown.map((task) => (
            <TaskRow
              key={task.id}
              task={task}
              timeZone={data.timeZone}
              canComplete={data.can.complete}
              onComplete={() => onComplete({ condition, task })}
              onNotApplicable={() => onNotApplicable({ condition, task })}
            />
          ))}
        </Box>
      ) : (
        <Typography variant="body2" sx={{ color: "text.secondary", mt: 1 }}>
          {condition.schedule === "after_event"
            ? "No tasks yet: a task comes when this kind of event is logged on the project."
            : "No open tasks."}
        </Typography>
      )}
      {hidden > 0 || (showAll && older > 0) || (!showAll && older > 0) ? (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap", mt: 0.5 }}>
          {hidden > 0 ? (
            <Button size="small" onClick={() => setShowAll(true)}>
              Show {formatCount(hidden)} more
            </Button>
          ) : null}
          {older > 0 && (showAll || hidden === 0) ? (
            <Typography variant="caption" sx={{ color: "text.secondary" }}>
              {formatCount(older)} older tasks in the audit trail
            </Typography>
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}

/**
 * Conditions (issue 29): the permit's conditions of approval, each with its tasks (open first, due
 * dates, overdue marked). Staff add, edit and remove conditions, complete tasks (with the evidence
 * asked for) or mark them Not Applicable; a client-user reads them.
 */
export function ConditionsCard({
  permitId,
  responsibleName,
  today,
}: {
  permitId: string;
  responsibleName: string | null;
  today: string;
}) {
  const conditions = usePermitConditions(permitId);
  const [editing, setEditing] = useState<Condition | null | "new">(null);
  const [completing, setCompleting] = useState<TaskTarget | null>(null);
  const [notApplicable, setNotApplicable] = useState<TaskTarget | null>(null);
  const [removing, setRemoving] = useState<Condition | null>(null);
  const hasOpened = useHasOpened(editing !== null);
  const data = conditions.data;
  if (!data) return <PendingCard title="Conditions" icon={<RuleOutlined />} error={conditions.error} />;
  const openTasks = data.conditions.reduce(
    (n, c) => n + c.tasks.filter((t) => t.status === "open").length,
    0,
  );
  return (
    <DetailCard
      title="Conditions"
      icon={<RuleOutlined />}
      action={
        data.can.manage ? (
          <Button
            variant="outlined"
            size="small"
            startIcon={<Add />}
            onClick={() => setEditing("new")}
            sx={{ whiteSpace: "nowrap", flexShrink: 0 }}
          >
            Add Condition
          </Button>
        ) : openTasks ? (
          <Chip size="small" label={`${formatCount(openTasks)} open`} />
        ) : null
      }
    >
      {data.conditions.length ? (
        <Box
          component="ul"
          aria-label="Conditions"
          sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 1.25 }}
        >
          {data.conditions.map((c) => (
            <ConditionItem
              key={c.id}
              condition={c}
              data={data}
              onEdit={() => setEditing(c)}
              onRemove={() => setRemoving(c)}
              onComplete={setCompleting}
              onNotApplicable={setNotApplicable}
            />
          ))}
        </Box>
      ) : (
        <EmptyState>
          {data.can.manage
            ? "No conditions yet. Use Add Condition to track a condition of approval as tasks."
            : "No conditions of approval."}
        </EmptyState>
      )}
      {data.can.manage && hasOpened ? (
        <ConditionDialog
          key={editing === "new" || editing === null ? "new" : editing.id}
          permitId={permitId}
          open={editing !== null}
          editing={editing === "new" ? null : editing}
          data={data}
          responsibleName={responsibleName}
          today={today}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {data.can.complete ? (
        <>
          <CompleteTaskDialog
            permitId={permitId}
            target={completing}
            timeZone={data.timeZone}
            onClose={() => setCompleting(null)}
          />
          <NotApplicableDialog
            permitId={permitId}
            target={notApplicable}
            timeZone={data.timeZone}
            onClose={() => setNotApplicable(null)}
          />
        </>
      ) : null}
      {data.can.manage ? (
        <RemoveConditionDialog permitId={permitId} target={removing} onClose={() => setRemoving(null)} />
      ) : null}
    </DetailCard>
  );
}
