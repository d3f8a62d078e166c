import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../../shared/domain/constants.ts";

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  ms: number;
}

/** One HTTP exchange with a deadline; a network error or a timeout answers status 0 and the error's text. */
export async function call<T = unknown>(
  base: string,
  method: string,
  url: string,
  opts: { cookie?: string; json?: unknown; form?: FormData; timeoutMs?: number } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: base };
  if (opts.cookie) headers.cookie = opts.cookie;
  let body: string | FormData | undefined;
  if (opts.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    body = opts.form;
  }
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T, headers: res.headers, ms: performance.now() - t0 };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return {
      status: 0,
      body: `${e.name}: ${e.cause?.code ?? e.message}` as T,
      headers: new Headers(),
      ms: performance.now() - t0,
    };
  }
}

/** Signs in through the real route; returns the session cookie ("name=value; ..."). */
export async function signIn(base: string, email: string, password: string): Promise<string> {
  const headers = { "content-type": "application/json", [CSRF_HEADER]: CSRF_HEADER_VALUE };
  const res = await fetch(`${base}/api/auth/sign-in`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, password }),
    signal: AbortSignal.timeout(30_000),
  });
  if (res.status !== 200)
    throw new Error(`sign-in of ${email} at ${base}: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
