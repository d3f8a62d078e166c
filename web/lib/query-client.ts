import { MutationCache, QueryCache, QueryClient, type QueryKey } from "@tanstack/react-query";
import { ApiError, errorMessage } from "./api.ts";
import { notify } from "./notify.ts";

declare module "@tanstack/react-query" {
  interface Register {
    mutationMeta: {
      /** Snackbar shown on success, e.g. "Permit saved."; or made from the answer ("Renewed: term 2, ..."). */
      successMessage?: string | ((data: unknown) => string);
      /** Set false when the screen shows the error itself (forms with an inline alert). */
      notifyError?: boolean;
      /** Query keys (prefixes) to invalidate after success. */
      invalidates?: readonly QueryKey[];
    };
  }
}

// Session failures are handled by redirects (see onAuthFailure in app/), not by a snackbar.
const isSessionError = (error: unknown) =>
  error instanceof ApiError &&
  (error.status === 401 ||
    error.code === "PASSWORD_RESET_REQUIRED" ||
    error.code === "TWO_FACTOR_SETUP_REQUIRED");

// A 4xx will answer the same again; only network trouble and 5xx are worth a retry.
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        // A first load shows its error in place; a failed background refresh would otherwise be silent.
        if (query.state.data !== undefined && !isSessionError(error)) {
          notify(errorMessage(error), "error");
        }
      },
    }),
    mutationCache: new MutationCache({
      onSuccess: async (data, _variables, _context, mutation) => {
        const meta = mutation.options.meta;
        const message =
          typeof meta?.successMessage === "function" ? meta.successMessage(data) : meta?.successMessage;
        if (message) notify(message, "success");
        if (meta?.invalidates?.length) {
          await Promise.all(meta.invalidates.map((queryKey) => client.invalidateQueries({ queryKey })));
        }
      },
      onError: (error, _variables, _context, mutation) => {
        if (mutation.options.meta?.notifyError === false || isSessionError(error)) return;
        notify(errorMessage(error), "error");
      },
    }),
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
  return client;
}

export const queryClient = createQueryClient();
