import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ApiError, apiUploadFile, isApiError } from "../../../lib/api.ts";
import type { ClosedLink, RequestLink } from "./types.ts";

// The party's page (no sign-in). Only this file and the page's own components are its code: it
// must paint fast on a phone's cold browser (see web/features/document-requests/routes/request-link.tsx).

const linkKey = (token: string) => ["request-link", token] as const;
const base = (token: string) => `/api/request-links/${encodeURIComponent(token)}`;

/** What the link shows: the request, or the page of a link that has expired or was withdrawn. */
export type LinkPage = { kind: "open"; link: RequestLink } | { kind: "closed"; closed: ClosedLink };

/**
 * GET /api/request-links/:token. A 410 is a page of its own (expired or revoked, with the company's
 * name), so it is read here rather than thrown; a 404 (a mistyped link) is the error.
 */
async function readLink(token: string, signal: AbortSignal): Promise<LinkPage> {
  const response = await fetch(base(token), { headers: { accept: "application/json" }, signal });
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok) return { kind: "open", link: body as RequestLink };
  if (response.status === 410) return { kind: "closed", closed: body as ClosedLink };
  const message =
    response.status === 404
      ? "This link is not valid. Check that the whole address from the e-mail was opened."
      : ((body as { message?: string } | undefined)?.message ?? "The request could not be loaded.");
  throw new ApiError(response.status, `HTTP_${response.status}`, message);
}

export function useRequestLink(token: string) {
  return useQuery({
    queryKey: linkKey(token),
    queryFn: ({ signal }) => readLink(token, signal),
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** When a write finds the link closed meanwhile (410), the page reads it again to show why. */
function useOnGone(token: string) {
  const client = useQueryClient();
  return (error: unknown) => {
    if (isApiError(error) && error.status === 410)
      void client.invalidateQueries({ queryKey: linkKey(token) });
  };
}

/** POST /api/request-links/:token/files: one file, with its progress; listed at once. */
export function useUploadLinkFile(token: string, onProgress: (fraction: number) => void) {
  const client = useQueryClient();
  const onGone = useOnGone(token);
  return useMutation({
    mutationFn: (file: File) =>
      apiUploadFile<{ file: RequestLink["files"][number] }>(`${base(token)}/files`, file, onProgress),
    onSuccess: ({ file }) =>
      client.setQueryData<LinkPage>(linkKey(token), (page) =>
        page?.kind === "open" ? { ...page, link: { ...page.link, files: [...page.link.files, file] } } : page,
      ),
    onError: onGone,
    meta: { notifyError: false },
  });
}

/** POST /api/request-links/:token/submit: the values; the files are already there. */
export function useSubmitLink(token: string) {
  const client = useQueryClient();
  const onGone = useOnGone(token);
  return useMutation({
    mutationFn: (values: Record<string, string>) =>
      api.post<{ state: "submitted" }>(`${base(token)}/submit`, { values }),
    onSuccess: () =>
      client.setQueryData<LinkPage>(linkKey(token), (page) =>
        page?.kind === "open"
          ? {
              ...page,
              link: {
                ...page.link,
                state: "submitted",
                request: { ...page.link.request, rejectReason: null },
              },
            }
          : page,
      ),
    onError: onGone,
    meta: { notifyError: false },
  });
}

export const linkLogoUrl = (token: string) => `${base(token)}/logo`;
