import { z } from "zod";
import { ScopeContentsSchema } from "./scope-contents.ts";

/** GET /api/permits/summary: the tiles and both charts, over the list's filters. */
export const PermitSummarySchema = z.object({
  total: z.number().int().nonnegative(),
  in_review: z.number().int().nonnegative(),
  active: z.number().int().nonnegative(),
  /** Permits with a close date (DESIGN.md 6.1). */
  closed: z.number().int().nonnegative(),
  /** Expiring today or within the next 30 days. */
  expiring_soon: z.number().int().nonnegative(),
  /** Expiration date before today. */
  expired: z.number().int().nonnegative(),
  /** Renew-by date within 30 days or passed, not closed (issue 11). */
  renewal_due: z.number().int().nonnegative(),
  /** Permits with a document request awaiting review (issue 27); 0 for a client-user, who does not review. */
  review: z.number().int().nonnegative(),
  /** Issue 29 'Tasks Due': permits (not tasks) with an open task due within 7 days or overdue. */
  tasks: z.number().int().nonnegative(),
  by_status: z.array(
    z.object({ category: z.enum(["In Progress", "In Review", "Active"]), count: z.number().int() }),
  ),
  /** The agencies with the most permits; the rest add up under `other`. */
  by_agency: z.array(z.object({ agency: z.string(), count: z.number().int() })),
  other_agencies: z.number().int().nonnegative(),
  /** What exists within the actor's scope, whatever the filters (issue 25). */
  in_scope: ScopeContentsSchema,
});
export type PermitSummary = z.infer<typeof PermitSummarySchema>;
