// Document requests answered by link (issue 27): what an outside party (an agency, a surety, a
// subcontractor) is asked for, what it may fill in, and the words the screens and the trail use.
// Server and web both read this file; the contract is shared-notes/i27-requests-api.md.

/** What is asked of the party. */
export const DOCUMENT_KINDS = [
  "renewed_permit",
  "inspection_report",
  "bond_rider",
  "continuation_certificate",
  "release_letter",
  "certificate_of_insurance",
  "other",
] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export const DOCUMENT_KIND_LABELS: Record<DocumentKind, string> = {
  renewed_permit: "Renewed Permit",
  inspection_report: "Inspection Report",
  bond_rider: "Bond Rider",
  continuation_certificate: "Continuation Certificate",
  release_letter: "Release Letter",
  certificate_of_insurance: "Certificate of Insurance",
  other: "Other",
};

/** The values a party may be asked to fill in beside its files. */
export const REQUEST_FIELDS = [
  "new_expiration_date",
  "new_permit_number",
  "amount",
  "effective_date",
] as const;
export type RequestField = (typeof REQUEST_FIELDS)[number];
export const REQUEST_FIELD_LABELS: Record<RequestField, string> = {
  new_expiration_date: "New Expiration Date",
  new_permit_number: "New Permit Number",
  amount: "Amount",
  effective_date: "Effective Date",
};
/** Which values are dates (YYYY-MM-DD); amount is money, the permit number is text. */
export const DATE_REQUEST_FIELDS: readonly RequestField[] = ["new_expiration_date", "effective_date"];
/** Longest value a party may type into a text field. */
export const REQUEST_VALUE_MAX = 100;

/** The fields each kind offers (a request asks for a subset of them). */
export const KIND_FIELDS: Record<DocumentKind, readonly RequestField[]> = {
  renewed_permit: ["new_expiration_date", "new_permit_number"],
  inspection_report: [],
  bond_rider: ["amount", "effective_date"],
  continuation_certificate: [],
  release_letter: [],
  certificate_of_insurance: [],
  other: [],
};

/** The fields `kind` offers. */
export const fieldsOfKind = (kind: DocumentKind): readonly RequestField[] => KIND_FIELDS[kind];

/** What the request asks for in words: 'Other' reads as its Title. */
export const documentLabel = (kind: DocumentKind, title: string | null | undefined): string =>
  kind === "other" && title ? title : DOCUMENT_KIND_LABELS[kind];

/** How long a link works unless the request says otherwise, and the bounds a request may set. */
export const DEFAULT_LINK_DAYS = 30;
export const MIN_LINK_DAYS = 1;
export const MAX_LINK_DAYS = 90;

/** Limits on the texts of a request. */
export const REQUEST_TITLE_MAX = 200;
export const REQUEST_MESSAGE_MAX = 4000;
export const REJECT_REASON_MAX = 2000;

/** The stored status of a request (document_requests.status). */
export const REQUEST_STATUSES = ["open", "submitted", "approved", "revoked"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** What the screens show: the status with what happened to the link (viewed, rejected, expired). */
export const REQUEST_STATES = [
  "sent",
  "viewed",
  "submitted",
  "approved",
  "rejected",
  "revoked",
  "expired",
] as const;
export type RequestState = (typeof REQUEST_STATES)[number];
export const REQUEST_STATE_LABELS: Record<RequestState, string> = {
  sent: "Sent",
  viewed: "Viewed",
  submitted: "Submitted",
  approved: "Approved",
  rejected: "Rejected",
  revoked: "Revoked",
  expired: "Expired",
};

/** A submission of the party (request_submissions.status). */
export const SUBMISSION_STATUSES = ["pending", "approved", "rejected"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** What the link's page may show: open (may upload and submit), submitted, approved; expired and revoked answer 410. */
export const LINK_STATES = ["open", "submitted", "approved"] as const;
export type LinkState = (typeof LINK_STATES)[number];
export const GONE_LINK_STATES = ["expired", "revoked"] as const;
export type GoneLinkState = (typeof GONE_LINK_STATES)[number];

export interface RequestStateInput {
  status: RequestStatus;
  expiresAt: string | Date;
  firstViewedAt: string | Date | null;
  rejectReason: string | null;
}

/**
 * The state the screens show: revoked and approved as stored; an open or submitted request past its
 * link's expiry is expired only while nothing awaits review (a submitted one can still be reviewed);
 * an open one that was rejected reads Rejected until the party submits again, else Viewed or Sent.
 */
export function requestState(r: RequestStateInput, now: Date = new Date()): RequestState {
  if (r.status === "revoked") return "revoked";
  if (r.status === "approved") return "approved";
  if (r.status === "submitted") return "submitted";
  if (new Date(r.expiresAt).getTime() <= now.getTime()) return "expired";
  if (r.rejectReason) return "rejected";
  return r.firstViewedAt ? "viewed" : "sent";
}

/** A request is overdue when its due date has passed (today, in the company's zone) and nothing was approved. */
export const isRequestOverdue = (status: RequestStatus, dueDate: string | null, today: string): boolean =>
  dueDate !== null && dueDate < today && (status === "open" || status === "submitted");

/** The trail's actions of a request (permit_audit.action), in words. */
export const REQUEST_AUDIT_ACTIONS = {
  request_sent: "Document Requested",
  request_viewed: "Request Link Opened",
  request_file_uploaded: "Requested File Uploaded",
  request_submitted: "Requested Document Submitted",
  request_approved: "Requested Document Approved",
  request_rejected: "Requested Document Rejected",
  request_revoked: "Request Link Revoked",
} as const;
export type RequestAuditAction = keyof typeof REQUEST_AUDIT_ACTIONS;
/** The fields of those entries, in words. */
export const REQUEST_AUDIT_FIELDS = {
  document_request: "Document",
  request_party: "Requested Of",
  request_file: "File",
  request_values: "Values",
  reject_reason: "Reason",
} as const;

/** The web page a link opens (PUBLIC_URL + this); the server redacts its token in logs. */
export const REQUEST_LINK_PAGE = "/request/";
export const requestLinkPath = (token: string) => `${REQUEST_LINK_PAGE}${token}`;

/**
 * The company-wide Requests page's State filter (issue 27): awaiting_review (submitted, to be
 * approved or rejected), open (the link works, nothing submitted), overdue (due date passed, not
 * approved or revoked), approved, revoked, expired (the link ran out with nothing awaiting review).
 */
export const REQUEST_QUEUE_STATES = [
  "awaiting_review",
  "open",
  "overdue",
  "approved",
  "revoked",
  "expired",
  "all",
] as const;
export type RequestQueueState = (typeof REQUEST_QUEUE_STATES)[number];
export const REQUEST_QUEUE_STATE_LABELS: Record<RequestQueueState, string> = {
  awaiting_review: "Awaiting review",
  open: "Open",
  overdue: "Overdue",
  approved: "Approved",
  revoked: "Revoked",
  expired: "Expired",
  all: "All",
};
/** Longest text the Requests page's Party search sends. */
export const REQUEST_PARTY_SEARCH_MAX = 200;
