import { useQuery } from "@tanstack/react-query";
import type { ImpersonationCandidates } from "../../../../shared/schemas/impersonation.ts";
import { api } from "../../../lib/api.ts";
import { impersonationCandidatesQueryKey } from "./impersonation.ts";

/** GET /api/impersonation/candidates: the users a super-admin may view as, grouped by company. */
export function useImpersonationCandidates(enabled: boolean) {
  return useQuery({
    queryKey: impersonationCandidatesQueryKey,
    queryFn: ({ signal }) => api.get<ImpersonationCandidates>("/api/impersonation/candidates", { signal }),
    enabled,
    staleTime: 60_000,
  });
}
