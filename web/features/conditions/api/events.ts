import { useMutation, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type {
  EventCreatedSchema,
  EventInputSchema,
  ProjectEventsSchema,
} from "../../../../shared/schemas/conditions.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys, projectsQueryKey } from "../../../lib/query-keys.ts";
import { plural } from "../../../lib/format.ts";

type EventCreated = z.infer<typeof EventCreatedSchema>;
type ProjectEvents = z.infer<typeof ProjectEventsSchema>;
export type EventBody = z.input<typeof EventInputSchema>;

export const projectEventsKey = (projectId: string) => [...projectsQueryKey, "events", projectId] as const;

/** GET /api/projects/:id/events: the project's events, newest first, and the kinds to offer. */
export function useProjectEvents(projectId: string) {
  return useQuery({
    queryKey: projectEventsKey(projectId),
    queryFn: ({ signal }) => api.get<ProjectEvents>(`/api/projects/${projectId}/events`, { signal }),
  });
}

/** The toast after 'Log Event': how many tasks it made, and on how many permits. */
export function eventMessage({ event, tasksCreated, permits }: EventCreated): string {
  if (!tasksCreated) return `${event.kind} logged. No condition asks for a task after it.`;
  return `${event.kind} logged: ${plural(tasksCreated, "task")} created on ${plural(permits.length, "permit")}.`;
}

/**
 * 'Log Event': POST /api/projects/:id/events. The tasks it makes land on the project's permits,
 * so every permit's cards and the lists (Tasks Due) are read again.
 */
export function useLogEvent(projectId: string) {
  return useMutation({
    mutationFn: (body: EventBody) => api.post<EventCreated>(`/api/projects/${projectId}/events`, body),
    meta: {
      successMessage: (data) => eventMessage(data as EventCreated),
      notifyError: false,
      invalidates: [projectsQueryKey, permitKeys.all],
    },
  });
}
