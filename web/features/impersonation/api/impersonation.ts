import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";

/**
 * Super-admin "mimic" (spec sections 1 and 4). The server swaps the session's identity, so
 * after starting or stopping we reload the page: every cached answer belonged to the other user.
 */
export const impersonationCandidatesQueryKey = ["impersonation", "candidates"] as const;

/** POST /api/impersonation {userId}: view the app as that user. */
export function startImpersonation(userId: string) {
  return api.post<unknown>("/api/impersonation", { userId });
}

/** DELETE /api/impersonation: back to the super-admin's own identity. */
export function stopImpersonation() {
  return api.delete<unknown>("/api/impersonation");
}

export function useStartImpersonation() {
  return useMutation({
    mutationFn: startImpersonation,
    onSuccess: () => window.location.assign("/permits"),
  });
}

export function useStopImpersonation() {
  return useMutation({
    mutationFn: stopImpersonation,
    onSuccess: () => window.location.reload(),
  });
}
