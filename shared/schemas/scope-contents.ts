import { z } from "zod";

/**
 * What exists within the actor's scope, whatever a list's filters (issue 25): "nothing yet" against
 * "nothing matches these filters", and the getting-started steps. Part of the permit summary
 * (GET /api/permits/summary) and the Bonds page (GET /api/bonds), read within a statement each
 * already sends.
 */
export const ScopeContentsSchema = z.object({
  /** Any permit or bond the actor may see (archived, N/A and closed ones too). */
  permits: z.boolean(),
  /** Any bond the actor may see. */
  bonds: z.boolean(),
  /**
   * Staff only (null for a client-user, who never sees the steps): each step done or not. A
   * super-admin's are the platform's (any company, any client and project, any permit); a company's
   * staff's are their company's (its company step is always done).
   */
  getting_started: z
    .object({
      company: z.boolean(),
      client_and_project: z.boolean(),
      permits: z.boolean(),
    })
    .nullable(),
});
export type ScopeContents = z.infer<typeof ScopeContentsSchema>;
export type GettingStartedSteps = NonNullable<ScopeContents["getting_started"]>;
