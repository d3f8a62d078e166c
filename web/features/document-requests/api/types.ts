// The contract's shapes (shared-notes/i27-requests-api.md), until the server's response schemas land
// in shared/schemas: then these become type re-exports of theirs.
import type {
  DocumentKind,
  LinkState,
  GoneLinkState,
  RequestField,
  RequestState,
  RequestStatus,
  SubmissionStatus,
} from "../../../../shared/domain/document-requests.ts";

export type { DocumentKind, RequestField, RequestState };

export interface RequestFile {
  id: string;
  filename: string;
  size: number;
  contentType?: string;
  createdAt: string;
}

export interface RequestSubmission {
  id: string;
  status: SubmissionStatus;
  values: Partial<Record<string, string>>;
  submittedAt: string;
  reviewedAt: string | null;
  reason: string | null;
  files: RequestFile[];
}

/** A request as staff see it; a client-user's carries only the first fields (the rest absent). */
export interface RequestView {
  id: string;
  documentKind: DocumentKind;
  documentLabel: string;
  title: string | null;
  state: RequestState;
  stateLabel: string;
  createdAt: string;
  submittedAt: string | null;
  reviewedAt: string | null;
  permitId?: string;
  contactId?: string | null;
  partyName?: string;
  partyEmail?: string;
  partyOrganization?: string | null;
  message?: string | null;
  dueDate?: string | null;
  fields?: RequestField[];
  expiresAt?: string;
  status?: RequestStatus;
  overdue?: boolean;
  createdByName?: string | null;
  firstViewedAt?: string | null;
  reviewedByName?: string | null;
  rejectReason?: string | null;
  submissions?: RequestSubmission[];
}

export interface RequestContact {
  id: string;
  name: string;
  email: string | null;
  organization: string | null;
  kind: string | null;
}

export interface RequestOptions {
  contacts: RequestContact[];
}

export interface NewRequestBody {
  contactId?: string;
  name?: string;
  email?: string;
  organization?: string;
  documentKind: DocumentKind;
  title?: string;
  message?: string;
  dueDate?: string;
  fields: RequestField[];
}

/** GET /api/request-links/:token: what the party's page shows. */
export interface RequestLink {
  state: LinkState;
  company: { name: string; hasLogo: boolean };
  request: {
    documentLabel: string;
    title: string | null;
    message: string | null;
    dueDate: string | null;
    fields: RequestField[];
    itemKind: "permit" | "bond";
    itemName: string;
    itemNumber: string | null;
    rejectReason?: string | null;
  };
  files: { id: string; filename: string; size: number; createdAt: string }[];
}

/** The 410 answer of an expired or revoked link. */
export interface ClosedLink {
  state: GoneLinkState;
  company: { name: string };
}
