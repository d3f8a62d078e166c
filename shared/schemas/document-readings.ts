import { z } from "zod";
import { SUGGESTION_FIELDS } from "../domain/document-reading.ts";
import { PermitDetailSchema } from "./permit-detail.ts";

/** Issue 28: the document reader's API shapes (server/features/documents, web/features/document-suggestions). */

export const SuggestionSchema = z.object({
  field: z.enum(SUGGESTION_FIELDS),
  value: z.string(),
  raw: z.string(),
  page: z.number().int().positive(),
  snippet: z.string(),
  confidence: z.number().min(0).max(1),
  ambiguous: z.boolean(),
});

export const READING_STATUSES = ["pending", "reading", "done", "failed"] as const;

/** One file's reading, as staff see it (a client-user never does: 403). */
export const DocumentReadingSchema = z.object({
  id: z.uuid(),
  filename: z.string(),
  status: z.enum(READING_STATUSES),
  pageCount: z.number().int().nullable(),
  pagesRead: z.number().int(),
  /** Why fewer pages were read than the document has (a bound), in words; else null. */
  notice: z.string().nullable(),
  /** Why the file could not be read at all (status 'failed'), in words; else null. */
  error: z.string().nullable(),
  suggestions: z.array(SuggestionSchema),
  /** The attachment the reading is shown for (a permit's page), null for a form's staged file. */
  attachmentId: z.uuid().nullable(),
});
export type DocumentReading = z.infer<typeof DocumentReadingSchema>;

export const DocumentReadingResponseSchema = z.object({ reading: DocumentReadingSchema });
export const DocumentReadingListSchema = z.object({ readings: z.array(DocumentReadingSchema) });
export type DocumentReadingList = z.infer<typeof DocumentReadingListSchema>;

/**
 * POST /api/permits/:id/accept-suggestions: the values a person accepted from one reading. Each is
 * saved through the permit's normal edit (or, for a bond's rider, a ledger rider entry; for an
 * inspection, an inspection), with an audit entry 'from document X, page N'.
 */
export const AcceptSuggestionsSchema = z.object({
  reading_id: z.uuid({ message: "Must be a reading" }),
  fields: z
    .array(z.object({ field: z.enum(SUGGESTION_FIELDS), value: z.string().trim().min(1).max(500) }))
    .min(1, { message: "Choose at least one value" }),
});
export type AcceptSuggestions = z.infer<typeof AcceptSuggestionsSchema>;

/** The answer of POST /api/permits/:id/accept-suggestions: the permit as it is now. */
export const AcceptSuggestionsResponseSchema = z.object({ permit: PermitDetailSchema });
