import { useMutation } from "@tanstack/react-query";
import type { TestEmailResult } from "../../../../shared/schemas/notifications.ts";
import { api } from "../../../lib/api.ts";

/** POST /api/notifications/test-email: one e-mail to the signed-in user through the real mailer. */
export function useSendTestEmail() {
  return useMutation({
    mutationFn: () => api.post<TestEmailResult>("/api/notifications/test-email"),
    // The page shows the mail server's answer in place, where the admin can read it.
    meta: { notifyError: false },
  });
}
