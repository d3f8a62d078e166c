import { z } from "zod";

/** One row of a permit's audit trail; newest first in a list. */
export const AuditEntrySchema = z.object({
  id: z.uuid(),
  action: z.string(),
  field: z.string().nullable(),
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
  userName: z.string(),
  /** The super-admin behind an impersonation session, when there was one. */
  impersonatorName: z.string().nullable(),
  /**
   * The entry records something staff-only: an internal comment, renewal fee or note, or extension
   * reason (issue 25). Only staff receive such entries; a client-user's trail leaves them out.
   */
  internal: z.boolean(),
  timestamp: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditListSchema = z.object({ entries: z.array(AuditEntrySchema) });
export type AuditList = z.infer<typeof AuditListSchema>;
