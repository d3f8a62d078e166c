import { z } from "zod";
import {
  DATE_REQUEST_FIELDS,
  DOCUMENT_KINDS,
  DOCUMENT_KIND_LABELS,
  GONE_LINK_STATES,
  KIND_FIELDS,
  LINK_STATES,
  MAX_LINK_DAYS,
  MIN_LINK_DAYS,
  REJECT_REASON_MAX,
  REQUEST_FIELDS,
  REQUEST_FIELD_LABELS,
  REQUEST_MESSAGE_MAX,
  REQUEST_STATES,
  REQUEST_STATUSES,
  REQUEST_TITLE_MAX,
  REQUEST_VALUE_MAX,
  SUBMISSION_STATUSES,
  type RequestField,
} from "../domain/document-requests.ts";
import { isIsoDate } from "../domain/dates.ts";
import { MONEY_PATTERN } from "../domain/bonds.ts";
import { optionalDate, optionalId, optionalText, rawAmount, requiredText, uuid } from "./fields.ts";

// Document requests answered by link (issue 27). The contract: shared-notes/i27-requests-api.md.

const CONTACT_KINDS = ["agency", "surety_agent", "subcontractor", "owner", "other"] as const;

const emailText = z
  .string()
  .trim()
  .max(254, { message: "Email must be at most 254 characters" })
  .refine((v) => v === "" || z.email().safeParse(v).success, { message: "Enter a valid email address" })
  .nullish()
  .transform((v) => (v ? v.toLowerCase() : null));

/** 'Request Document': to a contact (picked, or a new name and e-mail saved as one), what, by when. */
export const CreateRequestInputSchema = z
  .object({
    contactId: optionalId(),
    name: optionalText("Name", 200),
    email: emailText,
    organization: optionalText("Organization", 200),
    documentKind: z.enum(DOCUMENT_KINDS, { message: "Choose a Document" }),
    title: optionalText("Title", REQUEST_TITLE_MAX),
    message: optionalText("Message", REQUEST_MESSAGE_MAX),
    dueDate: optionalDate("Due Date"),
    fields: z
      .array(z.enum(REQUEST_FIELDS, { message: "Unknown field" }))
      .max(REQUEST_FIELDS.length)
      .default([]),
    expiresInDays: z
      .number({
        message: `Link valid for must be a number of days from ${MIN_LINK_DAYS} to ${MAX_LINK_DAYS}`,
      })
      .int({ message: `Link valid for must be a number of days from ${MIN_LINK_DAYS} to ${MAX_LINK_DAYS}` })
      .min(MIN_LINK_DAYS, { message: `Link valid for must be at least ${MIN_LINK_DAYS} day` })
      .max(MAX_LINK_DAYS, { message: `Link valid for must be at most ${MAX_LINK_DAYS} days` })
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.contactId) {
      if (!v.name) ctx.addIssue({ code: "custom", path: ["name"], message: "Name is required" });
      if (!v.email) ctx.addIssue({ code: "custom", path: ["email"], message: "Email is required" });
    }
    if (v.documentKind === "other" && !v.title)
      ctx.addIssue({ code: "custom", path: ["title"], message: "Title is required" });
    const offered = KIND_FIELDS[v.documentKind] ?? [];
    const extra = v.fields.filter((f) => !offered.includes(f));
    if (extra.length)
      ctx.addIssue({
        code: "custom",
        path: ["fields"],
        message: `${DOCUMENT_KIND_LABELS[v.documentKind]} does not offer ${extra.map((f) => REQUEST_FIELD_LABELS[f]).join(", ")}`,
      });
  });
export type CreateRequestInput = z.output<typeof CreateRequestInputSchema>;
export type CreateRequestFormValues = z.input<typeof CreateRequestInputSchema>;

export const RequestContactSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  organization: z.string().nullable(),
  kind: z.enum(CONTACT_KINDS),
});
export const RequestOptionsSchema = z.object({ contacts: z.array(RequestContactSchema) });
export type RequestOptions = z.infer<typeof RequestOptionsSchema>;

export const RequestFileSchema = z.object({
  id: z.string(),
  filename: z.string(),
  size: z.number(),
  contentType: z.string(),
  createdAt: z.string(),
});

export const SubmissionSchema = z.object({
  id: z.string(),
  status: z.enum(SUBMISSION_STATUSES),
  values: z.record(z.string(), z.string()),
  submittedAt: z.string(),
  reviewedAt: z.string().nullable(),
  reason: z.string().nullable(),
  files: z.array(RequestFileSchema),
});

/** A request as staff see it (company-admin, company-user, super-admin). */
export const RequestViewSchema = z.object({
  id: z.string(),
  permitId: z.string(),
  contactId: z.string().nullable(),
  partyName: z.string(),
  partyEmail: z.string(),
  partyOrganization: z.string().nullable(),
  documentKind: z.enum(DOCUMENT_KINDS),
  documentLabel: z.string(),
  title: z.string().nullable(),
  message: z.string().nullable(),
  dueDate: z.string().nullable(),
  fields: z.array(z.enum(REQUEST_FIELDS)),
  expiresAt: z.string(),
  status: z.enum(REQUEST_STATUSES),
  state: z.enum(REQUEST_STATES),
  stateLabel: z.string(),
  overdue: z.boolean(),
  createdAt: z.string(),
  createdByName: z.string(),
  firstViewedAt: z.string().nullable(),
  submittedAt: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  reviewedByName: z.string().nullable(),
  rejectReason: z.string().nullable(),
  submissions: z.array(SubmissionSchema),
});
export type RequestView = z.infer<typeof RequestViewSchema>;

/** What a client-user sees of a request: that a document was asked for and received, never the party or its files. */
export const ClientRequestViewSchema = RequestViewSchema.pick({
  id: true,
  documentKind: true,
  documentLabel: true,
  title: true,
  state: true,
  stateLabel: true,
  createdAt: true,
  submittedAt: true,
  reviewedAt: true,
});
export type ClientRequestView = z.infer<typeof ClientRequestViewSchema>;

export const RequestListSchema = z.object({
  items: z.array(z.union([RequestViewSchema, ClientRequestViewSchema])),
});
export type RequestList = z.infer<typeof RequestListSchema>;
export const RequestResponseSchema = z.object({ request: RequestViewSchema });

export const RequestParamsSchema = z.object({ id: uuid() });
export const RequestFileParamsSchema = z.object({ id: uuid(), fileId: uuid() });
export const PermitRequestParamsSchema = z.object({ permitId: uuid() });

export const ApproveInputSchema = z.object({ submissionId: uuid() });
export const RejectInputSchema = z.object({
  submissionId: uuid(),
  reason: requiredText("Reason", REJECT_REASON_MAX),
});

// The party's link (no sign-in).

/** A link token as the path carries it: 43 base64url characters (32 bytes); anything else is unknown. */
export const LinkTokenParamsSchema = z.object({ token: z.string().max(200) });

export const LinkFileSchema = RequestFileSchema.pick({
  id: true,
  filename: true,
  size: true,
  createdAt: true,
});
export const LinkPageSchema = z.object({
  state: z.enum(LINK_STATES),
  company: z.object({ name: z.string(), hasLogo: z.boolean() }),
  request: z.object({
    documentLabel: z.string(),
    title: z.string().nullable(),
    message: z.string().nullable(),
    dueDate: z.string().nullable(),
    fields: z.array(z.enum(REQUEST_FIELDS)),
    itemKind: z.enum(["permit", "bond"]),
    itemName: z.string(),
    itemNumber: z.string().nullable(),
    rejectReason: z.string().nullable(),
  }),
  files: z.array(LinkFileSchema),
});
export type LinkPage = z.infer<typeof LinkPageSchema>;
export const LinkGoneSchema = z.object({
  state: z.enum(GONE_LINK_STATES),
  company: z.object({ name: z.string() }),
});
export const LinkFileResponseSchema = z.object({ file: LinkFileSchema });
export const LinkSubmittedSchema = z.object({ state: z.literal("submitted") });

/** One value the party typed: a date field takes YYYY-MM-DD, Amount money, the permit number text. */
export function requestValueError(field: RequestField, value: string): string | null {
  const label = REQUEST_FIELD_LABELS[field];
  if (!value.trim()) return `${label} is required`;
  if (DATE_REQUEST_FIELDS.includes(field))
    return isIsoDate(value.trim()) ? null : `${label}: Must be a valid date (YYYY-MM-DD)`;
  if (field === "amount") {
    const s = rawAmount(value);
    return MONEY_PATTERN.test(s) && Number(s) !== 0
      ? null
      : `${label} must be a number with at most 2 decimals, not 0`;
  }
  return value.trim().length > REQUEST_VALUE_MAX
    ? `${label} must be at most ${REQUEST_VALUE_MAX} characters`
    : null;
}

/** 'Submit': the values of the request's fields (checked against the request on the server). */
export const SubmitInputSchema = z.object({
  values: z.record(z.string(), z.string().max(REQUEST_VALUE_MAX * 2, { message: "Too long" })).default({}),
});
export type SubmitInput = z.output<typeof SubmitInputSchema>;
