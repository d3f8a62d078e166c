import { useMutation } from "@tanstack/react-query";
import type { CreateUser, UpdateUser, User } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api.ts";
import { usersQueryKey } from "./get-users.ts";

// Candidates for the super-admin's user switcher change with the users.
const invalidates = [usersQueryKey, ["impersonation"]] as const;

/** POST /api/users. The form shows errors itself (field messages, 'User creation failed'). */
export function useCreateUser() {
  return useMutation({
    mutationFn: (input: CreateUser) => api.post<User>("/api/users", input),
    meta: { invalidates, successMessage: "User created.", notifyError: false },
  });
}

/** PUT /api/users/:id. The form shows errors itself ('User update failed'). */
export function useUpdateUser(id: string) {
  return useMutation({
    mutationFn: (input: UpdateUser) => api.put<User>(`/api/users/${id}`, input),
    meta: { invalidates, successMessage: "User saved.", notifyError: false },
  });
}
