import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type {
  Condition,
  ConditionInput,
  PermitConditions,
  Task,
  TaskChangeSchema,
} from "../../../../shared/schemas/conditions.ts";
import { api, apiUpload } from "../../../lib/api.ts";
import { afterCardWrite, permitKeys, projectsQueryKey } from "../../../lib/query-keys.ts";
import { formatDay } from "../../../lib/format.ts";

type TaskChange = z.infer<typeof TaskChangeSchema>;

/** The Conditions card's key, under the permit's: a change made elsewhere on the page refreshes it too. */
export const conditionsKey = (permitId: string) => [...permitKeys.detail(permitId), "conditions"] as const;

/** GET /api/permits/:id/conditions: the card's whole content (conditions, their tasks, the choices). */
export function usePermitConditions(permitId: string) {
  return useQuery({
    queryKey: conditionsKey(permitId),
    queryFn: ({ signal }) => api.get<PermitConditions>(`/api/permits/${permitId}/conditions`, { signal }),
  });
}

/** The card takes a write's answer in place of what it had: no second request. */
function putCondition(client: QueryClient, permitId: string, condition: Condition) {
  client.setQueryData<PermitConditions>(conditionsKey(permitId), (data) => {
    if (!data) return data;
    const known = data.conditions.some((c) => c.id === condition.id);
    return {
      ...data,
      conditions: known
        ? data.conditions.map((c) => (c.id === condition.id ? condition : c))
        : [...data.conditions, condition],
    };
  });
}

/** A task as Complete or Not Applicable left it, and the next one it made (first among the open). */
function putTaskChange(client: QueryClient, permitId: string, { task, next }: TaskChange) {
  client.setQueryData<PermitConditions>(conditionsKey(permitId), (data) => {
    if (!data) return data;
    return {
      ...data,
      conditions: data.conditions.map((c) => {
        if (c.id !== task.conditionId) return c;
        const rest = c.tasks.filter((t) => t.id !== task.id && t.id !== next?.id);
        const open = rest.filter((t) => t.status === "open");
        const closed = rest.filter((t) => t.status !== "open");
        const tasks: Task[] = [...open, ...(next ? [next] : [])].sort((a, b) =>
          a.dueAt.localeCompare(b.dueAt),
        );
        return { ...c, tasks: [...tasks, task, ...closed], closedTaskCount: c.closedTaskCount + 1 };
      }),
    };
  });
}

/** What a condition's or task's change makes stale beyond the card: the lists' Tasks Due, dashboards, audit. */
const stale = (permitId: string) => [
  ...afterCardWrite(permitId),
  projectsQueryKey,
  // The lifecycle counts the open tasks ('Close Permit' says how many).
  permitKeys.lifecycle(permitId),
];

/** 'Save Condition': POST /api/permits/:id/conditions, or PATCH /api/conditions/:id when editing. */
export function useSaveCondition(permitId: string, conditionId: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ConditionInput) =>
      conditionId
        ? api.patch<Condition>(`/api/conditions/${conditionId}`, body)
        : api.post<Condition>(`/api/permits/${permitId}/conditions`, body),
    onSuccess: (condition) => putCondition(client, permitId, condition),
    meta: {
      successMessage: (data) => {
        const c = data as Condition;
        const next = c.tasks.find((t) => t.status === "open");
        const due = next ? `; next task due ${formatDay(next.dueOn)}` : "";
        return conditionId ? `Condition saved${due}.` : `Condition added${due}.`;
      },
      // The dialog shows the field messages and the server's message itself.
      notifyError: false,
      invalidates: stale(permitId),
    },
  });
}

/** 'Remove' (confirmed): DELETE /api/conditions/:id; its open tasks end as Not Applicable. */
export function useRemoveCondition(permitId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (condition: Condition) => api.delete<void>(`/api/conditions/${condition.id}`),
    onSuccess: (_data, condition) =>
      client.setQueryData<PermitConditions>(conditionsKey(permitId), (data) =>
        data ? { ...data, conditions: data.conditions.filter((c) => c.id !== condition.id) } : data,
      ),
    meta: { successMessage: "Condition removed.", notifyError: false, invalidates: stale(permitId) },
  });
}

const nextText = (change: TaskChange) =>
  change.next ? ` Next task due ${formatDay(change.next.dueOn)}.` : "";

/** 'Complete' (dialog 'Complete Task'): POST /api/tasks/:id/complete as multipart `note` and `file`. */
export function useCompleteTask(permitId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      taskId,
      note,
      file,
      onProgress,
    }: {
      taskId: string;
      note: string;
      file: File | null;
      onProgress?: (fraction: number) => void;
    }) => {
      const form = new FormData();
      form.append("note", note);
      if (file) form.append("file", file, file.name);
      return apiUpload<TaskChange>(`/api/tasks/${taskId}/complete`, form, { onProgress });
    },
    onSuccess: (change) => putTaskChange(client, permitId, change),
    meta: {
      successMessage: (data) => `Task completed.${nextText(data as TaskChange)}`,
      notifyError: false,
      invalidates: stale(permitId),
    },
  });
}

/** 'Not Applicable' with its reason: POST /api/tasks/:id/not-applicable. */
export function useTaskNotApplicable(permitId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ taskId, reason }: { taskId: string; reason: string }) =>
      api.post<TaskChange>(`/api/tasks/${taskId}/not-applicable`, { reason }),
    onSuccess: (change) => putTaskChange(client, permitId, change),
    meta: {
      successMessage: (data) => `Task marked Not Applicable.${nextText(data as TaskChange)}`,
      notifyError: false,
      invalidates: stale(permitId),
    },
  });
}

/** A task's evidence file (a checked download, like the permit's attachments). */
export const evidenceUrl = (taskId: string) => `/api/tasks/${taskId}/evidence`;
