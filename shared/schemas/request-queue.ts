import { z } from "zod";
import {
  DOCUMENT_KINDS,
  REQUEST_PARTY_SEARCH_MAX,
  REQUEST_QUEUE_STATES,
  REQUEST_STATES,
} from "../domain/document-requests.ts";
import { filterDate, filterText, optionalId, pageFields } from "./fields.ts";

// The company-wide Requests page and the nav's count (issue 27, items 4 and 6): staff only.

/** GET /api/requests: the State, Party and Due filters and the page. */
export const RequestQueueQuerySchema = z
  .object({
    /** A super-admin may name one company (else every company's); everyone else sees their own. */
    company_id: optionalId(),
    state: z
      .enum(REQUEST_QUEUE_STATES, { message: `State must be one of ${REQUEST_QUEUE_STATES.join(", ")}` })
      .default("all"),
    /** Searches the party's name, organization and e-mail. */
    party: filterText(REQUEST_PARTY_SEARCH_MAX),
    due_from: filterDate("Due from"),
    due_to: filterDate("Due to"),
    ...pageFields(),
  })
  .superRefine((v, ctx) => {
    if (v.due_from && v.due_to && v.due_to < v.due_from)
      ctx.addIssue({ code: "custom", path: ["due_to"], message: "Due to cannot be before Due from" });
  });
export type RequestQueueQuery = z.output<typeof RequestQueueQuerySchema>;

/** One row of the Requests page: what was asked, of whom, for which permit or bond, and where it stands. */
export const RequestQueueItemSchema = z.object({
  id: z.uuid(),
  permitId: z.uuid(),
  companyId: z.uuid(),
  companyName: z.string(),
  itemKind: z.enum(["permit", "bond"]),
  itemName: z.string(),
  itemNumber: z.string(),
  partyName: z.string(),
  partyOrganization: z.string().nullable(),
  documentKind: z.enum(DOCUMENT_KINDS),
  documentLabel: z.string(),
  state: z.enum(REQUEST_STATES),
  stateLabel: z.string(),
  overdue: z.boolean(),
  createdAt: z.string(),
  dueDate: z.string().nullable(),
  submittedAt: z.string().nullable(),
});
export type RequestQueueItem = z.infer<typeof RequestQueueItemSchema>;

export const RequestQueueSchema = z.object({
  items: z.array(RequestQueueItemSchema),
  total: z.number().int().nonnegative(),
  page: z.number().int(),
  page_size: z.number().int(),
  /** Whether any request exists in the scope at all ("nothing yet" against "nothing matches"). */
  any: z.boolean(),
});
export type RequestQueue = z.infer<typeof RequestQueueSchema>;

/** GET /api/requests/awaiting-count: the nav's badge. */
export const AwaitingCountSchema = z.object({ count: z.number().int().nonnegative() });
export type AwaitingCount = z.infer<typeof AwaitingCountSchema>;
