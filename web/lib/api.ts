import type { ZodType } from "zod";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";

/**
 * The one HTTP client of the web app. Every call goes through `apiRequest` so that the CSRF
 * header, cookies, JSON handling, the error shape and the session redirects live in one place.
 */

/** An error answered by the API (`{code, message, fields?}`), or a network failure (status 0). */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** A message fit for the user, whatever was thrown. */
export function errorMessage(error: unknown, fallback = "Something went wrong. Please try again."): string {
  if (error instanceof ApiError || error instanceof Error) return error.message || fallback;
  return fallback;
}

export type AuthFailure = "unauthenticated" | "password-reset-required" | "two-factor-setup-required";
type AuthFailureListener = (failure: AuthFailure) => void;
const authFailureListeners = new Set<AuthFailureListener>();

/**
 * Subscribe to session failures seen on any API call (the app shell redirects on them).
 * Returns the unsubscribe function.
 */
export function onAuthFailure(listener: AuthFailureListener): () => void {
  authFailureListeners.add(listener);
  return () => authFailureListeners.delete(listener);
}

// These callers handle a missing session themselves: the guard and the login page read
// /api/me to decide where to go, and a failed sign-in must show its message, not redirect.
const SELF_HANDLED_AUTH_PATHS = new Set(["/api/me", "/api/auth/sign-in", "/api/auth/sign-in/code"]);

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestOptions<T> {
  /** JSON-serialisable body, or FormData for uploads (sent as multipart). */
  body?: unknown;
  /** Query-string parameters; null, undefined and "" are left out, arrays repeat the key. */
  query?: QueryParams;
  /** Pass TanStack Query's `signal` so that abandoned requests are cancelled. */
  signal?: AbortSignal;
  /** Validate the response body; a mismatch throws ApiError("BAD_RESPONSE"). */
  schema?: ZodType<T>;
  headers?: Record<string, string>;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export function buildUrl(path: string, query?: QueryParams): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, raw] of Object.entries(query)) {
    const values = Array.isArray(raw) ? raw : [raw];
    for (const value of values) {
      if (value === undefined || value === null || value === "") continue;
      params.append(key, String(value));
    }
  }
  const qs = params.toString();
  if (!qs) return path;
  return `${path}${path.includes("?") ? "&" : "?"}${qs}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json")) {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  return text;
}

function toApiError(status: number, statusText: string, body: unknown): ApiError {
  if (body && typeof body === "object") {
    const { code, message, fields } = body as { code?: unknown; message?: unknown; fields?: unknown };
    return new ApiError(
      status,
      typeof code === "string" ? code : `HTTP_${status}`,
      typeof message === "string" && message ? message : defaultMessage(status, statusText),
      fields && typeof fields === "object" ? (fields as Record<string, string>) : undefined,
    );
  }
  return new ApiError(status, `HTTP_${status}`, defaultMessage(status, statusText));
}

function defaultMessage(status: number, statusText: string): string {
  if (status >= 500) return "The server had a problem. Please try again.";
  return statusText ? `Request failed: ${statusText}` : `Request failed (${status}).`;
}

function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/** Perform one API call. Resolves with the parsed JSON body (undefined for 204). */
export async function apiRequest<T = unknown>(
  method: HttpMethod,
  path: string,
  options: RequestOptions<T> = {},
): Promise<T> {
  const { body, query, signal, schema } = options;
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (method !== "GET") headers[CSRF_HEADER] = CSRF_HEADER_VALUE;

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body; // the browser sets the multipart boundary
  } else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }

  const url = buildUrl(path, query);
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body: payload, credentials: "same-origin", signal });
  } catch (error) {
    if (signal?.aborted) throw error; // cancellation is not an error to show
    throw new ApiError(0, "NETWORK", "Unable to reach the server. Check your connection and try again.");
  }

  const data = await readBody(response);
  if (!response.ok) {
    const error = toApiError(response.status, response.statusText, data);
    if (!SELF_HANDLED_AUTH_PATHS.has(pathOf(path))) emitAuthFailureOf(error);
    throw error;
  }

  if (schema) {
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      throw new ApiError(response.status, "BAD_RESPONSE", "The server sent an unexpected response.");
    }
    return parsed.data;
  }
  return data as T;
}

function emitAuthFailure(failure: AuthFailure) {
  for (const listener of authFailureListeners) listener(failure);
}

/** The session failure an error means, if any, told to the listeners. */
function emitAuthFailureOf(error: ApiError) {
  if (error.status === 401) emitAuthFailure("unauthenticated");
  else if (error.code === "PASSWORD_RESET_REQUIRED") emitAuthFailure("password-reset-required");
  else if (error.code === "TWO_FACTOR_SETUP_REQUIRED") emitAuthFailure("two-factor-setup-required");
}

/**
 * POST a multipart form with upload progress (0..1). XMLHttpRequest, because fetch cannot report
 * upload progress; the answer and errors are handled like every other call.
 */
export function apiUpload<T = unknown>(
  path: string,
  form: FormData,
  options: { query?: QueryParams; onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", buildUrl(path, options.query));
    xhr.setRequestHeader(CSRF_HEADER, CSRF_HEADER_VALUE);
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let data: unknown;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        data = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(data as T);
        return;
      }
      const error = toApiError(xhr.status, xhr.statusText, data);
      emitAuthFailureOf(error);
      reject(error);
    };
    // A server refusing an oversized body mid-upload may simply drop the connection.
    xhr.onerror = () =>
      reject(
        new ApiError(
          0,
          "NETWORK",
          "The upload failed. Check the file size and your connection, then try again.",
        ),
      );
    options.signal?.addEventListener("abort", () => xhr.abort());
    xhr.send(form);
  });
}

/**
 * One file as multipart (field "file") with upload progress. A refusal that names the file ("The
 * file is empty.") is raised with that message, which says more than the generic one.
 */
export async function apiUploadFile<T = unknown>(
  path: string,
  file: File,
  onProgress?: (fraction: number) => void,
): Promise<T> {
  const form = new FormData();
  form.append("file", file);
  try {
    return await apiUpload<T>(path, form, { onProgress });
  } catch (err) {
    if (err instanceof ApiError && err.fields?.file)
      throw new ApiError(err.status, err.code, err.fields.file, err.fields);
    throw err;
  }
}

type NoBodyOptions<T> = Omit<RequestOptions<T>, "body">;

/** Shorthands: `api.get<Permit[]>("/api/permits", { query, signal })`, `api.post(path, body)`. */
export const api = {
  get: <T = unknown>(path: string, options?: NoBodyOptions<T>) => apiRequest<T>("GET", path, options),
  post: <T = unknown>(path: string, body?: unknown, options?: NoBodyOptions<T>) =>
    apiRequest<T>("POST", path, { ...options, body }),
  put: <T = unknown>(path: string, body?: unknown, options?: NoBodyOptions<T>) =>
    apiRequest<T>("PUT", path, { ...options, body }),
  patch: <T = unknown>(path: string, body?: unknown, options?: NoBodyOptions<T>) =>
    apiRequest<T>("PATCH", path, { ...options, body }),
  delete: <T = unknown>(path: string, options?: RequestOptions<T>) => apiRequest<T>("DELETE", path, options),
};
