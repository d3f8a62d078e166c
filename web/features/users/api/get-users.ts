import { useQuery } from "@tanstack/react-query";
import type { UserList } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api.ts";

/** Every query about users starts with this key, so one invalidation refreshes them all. */
export const usersQueryKey = ["users"] as const;

/** GET /api/users: the users the admin manages; a super-admin may narrow it to one company. */
export function useUsers(companyId: string) {
  return useQuery({
    queryKey: [...usersQueryKey, "list", companyId],
    queryFn: ({ signal }) => api.get<UserList>("/api/users", { signal, query: { companyId } }),
  });
}
