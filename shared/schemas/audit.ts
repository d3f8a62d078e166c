import { z } from "zod";

/** One row of a permit's audit trail; newest first in a list. */
export const AuditEntrySchema = z.object({
  id: z.uuid(),
  action: z.string(),
  field: z.string().nullable(),
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
  /**
   * For a field whose values are ids (the Responsible Person; the project, client or company of a
   * moved permit): the names of the records they point at, read with the trail; null when a value
   * is no id, or its record is gone or not the reader's to see (issue 25).
   */
  oldName: z.string().nullable(),
  newName: z.string().nullable(),
  userName: z.string(),
  /** The super-admin behind an impersonation session, when there was one. */
  impersonatorName: z.string().nullable(),
  /**
   * The entry records something staff-only: an internal comment, renewal fee or note, or extension
   * reason (issue 25). Only staff receive such entries; a client-user's trail leaves them out.
   */
  internal: z.boolean(),
  /**
   * Where the value came from when a person accepted it from a document rather than typing it
   * (issue 28): "from document permit.pdf, page 1"; null otherwise.
   */
  source: z.string().nullable(),
  timestamp: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditListSchema = z.object({
  entries: z.array(AuditEntrySchema),
  /** The permit's company's currency (ISO 4217): the trail's amounts are in it. */
  currency: z.string(),
});
export type AuditList = z.infer<typeof AuditListSchema>;
