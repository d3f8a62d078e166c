// The contract's shapes, from the server's schemas (shared/schemas/document-requests.ts). Types only:
// the party's page imports this file and must not carry zod.
import type { z } from "zod";
import type {
  DocumentKind,
  RequestField,
  RequestState,
} from "../../../../shared/domain/document-requests.ts";
import type {
  ClientRequestView,
  CreateRequestFormValues,
  LinkGoneSchema,
  LinkPage,
  RequestOptions,
  RequestView as StaffRequestView,
  SubmissionSchema,
} from "../../../../shared/schemas/document-requests.ts";

export type { DocumentKind, RequestField, RequestOptions, RequestState };

/** A request of the card: all of it for staff; a client-user's carries the first fields only. */
export type RequestView = ClientRequestView & Partial<Omit<StaffRequestView, keyof ClientRequestView>>;
export type RequestSubmission = z.infer<typeof SubmissionSchema>;
export type RequestContact = RequestOptions["contacts"][number];
export type NewRequestBody = CreateRequestFormValues;

/** GET /api/request-links/:token: what the party's page shows. */
export type RequestLink = LinkPage;
/** The 410 answer of an expired or revoked link. */
export type ClosedLink = z.infer<typeof LinkGoneSchema>;
