import { useQuery } from "@tanstack/react-query";
import type { User } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api.ts";
import { usersQueryKey } from "./get-users.ts";

/** GET /api/users/:id. */
export function useUser(id: string | undefined) {
  return useQuery({
    queryKey: [...usersQueryKey, "detail", id ?? ""],
    queryFn: ({ signal }) => api.get<User>(`/api/users/${id}`, { signal }),
    enabled: !!id,
  });
}
