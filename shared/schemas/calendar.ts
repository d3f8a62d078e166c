import { z } from "zod";

/**
 * The user's private calendar feed. Only a hash of the token is stored, so the URL is shown
 * once, when it is created or rotated (`url`); afterwards the feed is only known to be active.
 */
export const CalendarFeedSchema = z.object({
  active: z.boolean(),
  url: z.string().nullable(),
});
export type CalendarFeed = z.infer<typeof CalendarFeedSchema>;
