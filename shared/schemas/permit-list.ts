import { z } from "zod";
import { PERMIT_GROUPINGS } from "../domain/permit-list.ts";
import { PERMIT_STATUSES, RECORD_TYPES } from "../domain/statuses.ts";
import { TaskCountsSchema } from "./conditions.ts";
import { PermitAcknowledgedSchema, PermitCanSchema, ResponsibleSchema } from "./permit-detail.ts";

// The answer of GET /api/permits (the All Permits list); what it is asked with: permit-list-query.ts.

export const URGENCIES = ["expired", "expiring"] as const;

const day = z.string().nullable();

/** One row of the All Permits table. */
export const PermitListItemSchema = z.object({
  id: z.uuid(),
  permit_number: z.string(),
  permit_name: z.string(),
  agency: z.string().nullable(),
  status: z.enum(PERMIT_STATUSES),
  display_status: z.string(),
  record_type: z.enum(RECORD_TYPES),
  archived: z.boolean(),
  start_date: day,
  permit_application_date: day,
  expiration_date: day,
  company: z.object({ id: z.uuid(), name: z.string() }),
  /** The row's project and client, for the flat list (Group by: None) and the cards. */
  project: z.object({ id: z.uuid(), name: z.string(), project_number: z.string().nullable() }).nullable(),
  client: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  comment_count: z.number().int().nonnegative(),
  responsible: ResponsibleSchema,
  renew_by_date: day,
  /** The renew-by date has passed (company time zone) on a permit not closed: shown as overdue. */
  renew_by_overdue: z.boolean(),
  acknowledged: PermitAcknowledgedSchema,
  /** Row highlight against today in the permit's company time zone. */
  urgency: z.enum(URGENCIES).nullable(),
  can: PermitCanSchema.pick({ edit: true, delete: true }),
  /**
   * Issue 28: with a search, the name of the permit's current file whose text holds the words
   * (found by what the document says); null without a search or when nothing in its files matched.
   */
  matched_document: z.string().nullable(),
  /** Issue 29: the permit's open condition tasks in brief (all zero and null without any). */
  tasks: TaskCountsSchema,
});
export type PermitListItem = z.infer<typeof PermitListItemSchema>;

export const PermitGroupProjectSchema = z.object({
  /** Null for permits without a project. */
  project: z.object({ id: z.uuid(), name: z.string(), project_number: z.string().nullable() }).nullable(),
  permits: z.array(PermitListItemSchema),
});
export const PermitGroupSchema = z.object({
  /** Null for permits without a client. */
  client: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  projects: z.array(PermitGroupProjectSchema),
});
export type PermitGroup = z.infer<typeof PermitGroupSchema>;

/**
 * GET /api/permits: one server-sorted page. Grouped (the default), `groups` holds it by client
 * then project in the order the groups first appear on the page (so the chosen sort still reads
 * top to bottom) and `items` is empty; with Group by: None, `items` is the page in order and
 * `groups` is empty.
 */
export const PermitListSchema = z.object({
  group_by: z.enum(PERMIT_GROUPINGS),
  groups: z.array(PermitGroupSchema),
  items: z.array(PermitListItemSchema),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  page_size: z.number().int().positive(),
});
export type PermitList = z.infer<typeof PermitListSchema>;
