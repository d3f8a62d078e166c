import { useMutation, useQuery } from "@tanstack/react-query";
import type { Query } from "@tanstack/react-query";
import type {
  AcceptSuggestions,
  DocumentReading,
  DocumentReadingList,
} from "../../../../shared/schemas/document-readings.ts";
import type { PermitDetail } from "../../../../shared/schemas/permit-detail.ts";
import { api, apiUpload, ApiError } from "../../../lib/api.ts";
import { afterPermitChange, permitKeys } from "../../../lib/query-keys.ts";

/** How often a reading still under way is asked about again. */
const POLL_MS = 1_000;

/** Still being read: the panel shows its progress line and asks again. */
export const isUnderWay = (reading: Pick<DocumentReading, "status">) =>
  reading.status === "pending" || reading.status === "reading";

/** The file types the reader takes (the server says so again: 400 in words). */
const READABLE_TYPES = ["application/pdf", "image/png", "image/jpeg", "image/tiff"];
const READABLE_EXTENSIONS = /\.(pdf|png|jpe?g|tiff?)$/i;
export const isReadableFile = (file: File) =>
  READABLE_TYPES.includes(file.type) || (!file.type && READABLE_EXTENSIONS.test(file.name));

const readingKey = (id: string) => ["document-readings", id] as const;
/**
 * A permit's readings hang under its attachments' key: an upload on the page (the Attachments
 * card, a ledger entry's document) invalidates that key, so the new file's reading is asked for.
 */
export const permitReadingsKey = (permitId: string) =>
  [...permitKeys.attachments(permitId), "document-readings"] as const;
const requestReadingsKey = (requestId: string) => ["request-queue", "readings", requestId] as const;

type Answer = { reading: DocumentReading };

/**
 * POST /api/document-readings: the new-permit form's file, read before the permit exists (a staged
 * read). A super-admin's form names the company it works on.
 */
export function useStageReading() {
  return useMutation({
    mutationFn: async ({ file, companyId }: { file: File; companyId: string | null }) => {
      const form = new FormData();
      if (companyId) form.append("company_id", companyId);
      form.append("file", file);
      try {
        return (await apiUpload<Answer>("/api/document-readings", form)).reading;
      } catch (err) {
        // A refusal that names the file says more than the generic message.
        if (err instanceof ApiError && err.fields?.file)
          throw new ApiError(err.status, err.code, err.fields.file, err.fields);
        throw err;
      }
    },
    meta: { notifyError: false },
  });
}

const pollWhileReading = (query: Query<Answer>) =>
  query.state.data && isUnderWay(query.state.data.reading) ? POLL_MS : false;

/** GET /api/document-readings/:id, asked again every second while it is pending or reading. */
export function useReading(reading: DocumentReading | undefined) {
  return useQuery({
    queryKey: readingKey(reading?.id ?? ""),
    queryFn: ({ signal }) => api.get<Answer>(`/api/document-readings/${reading?.id}`, { signal }),
    enabled: !!reading,
    initialData: reading ? { reading } : undefined,
    // The POST's answer is fresh only while it is done; one under way is asked about at once.
    staleTime: (query) => (query.state.data && isUnderWay(query.state.data.reading) ? 0 : Infinity),
    refetchInterval: pollWhileReading,
    refetchOnWindowFocus: false,
    select: (data) => data.reading,
  });
}

const pollWhileAnyReading = (query: Query<DocumentReadingList>) =>
  query.state.data?.readings.some(isUnderWay) ? POLL_MS : false;

/** GET /api/permits/:id/document-readings: the readings of the permit's current files (staff only). */
export function usePermitReadings(permitId: string, enabled: boolean) {
  return useQuery({
    queryKey: permitReadingsKey(permitId),
    queryFn: ({ signal }) =>
      api.get<DocumentReadingList>(`/api/permits/${permitId}/document-readings`, { signal }),
    enabled,
    refetchInterval: pollWhileAnyReading,
    select: (data) => data.readings,
  });
}

/** GET /api/requests/:id/document-readings: the readings of the latest submission's files (staff only). */
export function useRequestReadings(requestId: string, enabled: boolean) {
  return useQuery({
    queryKey: requestReadingsKey(requestId),
    queryFn: ({ signal }) =>
      api.get<DocumentReadingList>(`/api/requests/${requestId}/document-readings`, { signal }),
    enabled,
    refetchInterval: pollWhileAnyReading,
    select: (data) => data.readings,
  });
}

/**
 * POST /api/permits/:id/accept-suggestions: the values a person accepted, saved through the
 * permit's normal edit (a bond's rider through its ledger). The whole page is stale after it: the
 * permit, its ledger, lifecycle and audit trail (all under the permit's detail key) and the lists.
 */
export function useAcceptSuggestions(permitId: string, filename: string) {
  return useMutation({
    mutationFn: (body: AcceptSuggestions) =>
      api.post<{ permit: PermitDetail }>(`/api/permits/${permitId}/accept-suggestions`, body),
    meta: {
      successMessage: `Saved from ${filename}.`,
      invalidates: [permitKeys.detail(permitId), ...afterPermitChange],
    },
  });
}
