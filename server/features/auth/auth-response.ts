/** An answer of one of better-auth's endpoints called with `asResponse`: its status, error code and body. */
export interface AuthResponse<T> {
  ok: boolean;
  status: number;
  /** better-auth's error code ("INVALID_CODE", "INVALID_PASSWORD", ...) when not ok. */
  code: string | null;
  body: T | null;
}

/** Reads better-auth's Response without consuming it for the cookies (they are headers). */
export async function readAuthResponse<T = unknown>(res: Response): Promise<AuthResponse<T>> {
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as (T & { code?: unknown }) | null;
  const code = !res.ok && body && typeof body.code === "string" ? body.code : null;
  return { ok: res.ok, status: res.status, code, body };
}
