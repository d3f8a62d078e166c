/**
 * Query keys of the permit detail page. Everything hangs under ["permits", "detail", id], so a
 * permit change made elsewhere (which invalidates ["permits"]) refreshes the whole page.
 */
export const permitDetailKeys = {
  permit: (id: string) => ["permits", "detail", id] as const,
  comments: (id: string) => ["permits", "detail", id, "comments"] as const,
  attachments: (id: string) => ["permits", "detail", id, "attachments"] as const,
  audit: (id: string) => ["permits", "detail", id, "audit"] as const,
  reminders: (id: string) => ["permits", "detail", id, "reminders"] as const,
};
