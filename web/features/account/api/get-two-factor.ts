import { useQuery } from "@tanstack/react-query";
import type { TwoFactorStatus } from "../../../../shared/schemas/auth.ts";
import { api } from "../../../lib/api.ts";
import { twoFactorQueryKey } from "./keys.ts";

/** GET /api/me/two-factor: on or off, required, recovery codes left, what the user may do. */
export function useTwoFactorStatus() {
  return useQuery({
    queryKey: twoFactorQueryKey,
    queryFn: ({ signal }) => api.get<TwoFactorStatus>("/api/me/two-factor", { signal }),
  });
}
