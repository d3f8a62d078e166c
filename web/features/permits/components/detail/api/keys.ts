import { permitKeys } from "../../../api/keys.ts";

/**
 * Query keys of the permit detail page, under the feature's ["permits", "detail", id], so a permit
 * change made elsewhere (which invalidates ["permits"]) refreshes the whole page.
 */
export const permitDetailKeys = {
  permit: permitKeys.detail,
  audit: permitKeys.audit,
  comments: (id: string) => [...permitKeys.detail(id), "comments"] as const,
  attachments: (id: string) => [...permitKeys.detail(id), "attachments"] as const,
  reminders: (id: string) => [...permitKeys.detail(id), "reminders"] as const,
};
