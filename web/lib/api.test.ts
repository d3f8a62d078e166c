import { afterEach, describe, expect, it, vi } from "vitest";
import { api, ApiError, buildUrl, onAuthFailure, type AuthFailure } from "./api.ts";

const jsonResponse = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

type FetchFn = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

function stubFetch(response: Response | (() => Promise<Response>)) {
  const fetchMock = vi.fn<FetchFn>(typeof response === "function" ? response : async () => response);
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** The RequestInit of the first call. */
const firstInit = (fetchMock: ReturnType<typeof stubFetch>) => fetchMock.mock.calls[0]?.[1] ?? {};

function captureAuthFailures() {
  const seen: AuthFailure[] = [];
  const off = onAuthFailure((f) => seen.push(f));
  return { seen, off };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("buildUrl", () => {
  it("leaves out empty values and repeats array keys", () => {
    expect(
      buildUrl("/api/permits", { q: "road", page: 2, type: undefined, x: null, y: "", ids: ["a", "b"] }),
    ).toBe("/api/permits?q=road&page=2&ids=a&ids=b");
    expect(buildUrl("/api/permits", { q: undefined })).toBe("/api/permits");
    expect(buildUrl("/api/x?a=1", { b: true })).toBe("/api/x?a=1&b=true");
  });
});

describe("apiRequest", () => {
  it("sends JSON with the CSRF header and same-origin credentials on writes", async () => {
    const fetchMock = stubFetch(jsonResponse(200, { mustResetPassword: false }));
    const result = await api.post<{ mustResetPassword: boolean }>("/api/auth/sign-in", {
      email: "a@b.c",
      password: "x",
    });
    expect(result).toEqual({ mustResetPassword: false });
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/auth/sign-in");
    const init = firstInit(fetchMock);
    expect(init.method).toBe("POST");
    expect(init.credentials).toBe("same-origin");
    expect(init.body).toBe(JSON.stringify({ email: "a@b.c", password: "x" }));
    const headers = init.headers as Record<string, string>;
    expect(headers["x-requested-with"]).toBe("permitrack");
    expect(headers["content-type"]).toBe("application/json");
  });

  it("sends no CSRF header or body on GET, and resolves 204 to undefined", async () => {
    const fetchMock = stubFetch(new Response(null, { status: 204 }));
    expect(await api.get("/api/thing")).toBeUndefined();
    const init = firstInit(fetchMock);
    expect((init.headers as Record<string, string>)["x-requested-with"]).toBeUndefined();
    expect(init.body).toBeUndefined();
  });

  it("leaves the content type of FormData to the browser", async () => {
    const fetchMock = stubFetch(jsonResponse(200, { ok: true }));
    const form = new FormData();
    form.append("file", new Blob(["a,b"]), "x.csv");
    await api.post("/api/imports", form);
    const init = firstInit(fetchMock);
    expect(init.body).toBe(form);
    expect((init.headers as Record<string, string>)["content-type"]).toBeUndefined();
  });

  it("throws ApiError with the server's code, message and fields", async () => {
    stubFetch(
      jsonResponse(400, { code: "VALIDATION", message: "Invalid input.", fields: { name: "Required" } }),
    );
    const error = await api.post("/api/projects", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: "VALIDATION",
      message: "Invalid input.",
      fields: { name: "Required" },
    });
  });

  it("gives a readable error when the body is not the error shape", async () => {
    stubFetch(
      new Response("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html" } }),
    );
    const error = await api.get("/api/permits").catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 502,
      code: "HTTP_502",
      message: "The server had a problem. Please try again.",
    });
  });

  it("turns a network failure into ApiError NETWORK", async () => {
    stubFetch(async () => {
      throw new TypeError("Failed to fetch");
    });
    const error = await api.get("/api/permits").catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: "NETWORK" });
  });

  it("reports a lost session, except on /api/me and sign-in, which handle it themselves", async () => {
    const { seen, off } = captureAuthFailures();
    try {
      stubFetch(async () => jsonResponse(401, { code: "UNAUTHENTICATED", message: "Not authenticated." }));
      await api.get("/api/permits", { query: { page: 1 } }).catch(() => undefined);
      await api.get("/api/me").catch(() => undefined);
      await api.post("/api/auth/sign-in", {}).catch(() => undefined);
      expect(seen).toEqual(["unauthenticated"]);

      stubFetch(async () => jsonResponse(403, { code: "PASSWORD_RESET_REQUIRED", message: "Reset first." }));
      await api.get("/api/permits").catch(() => undefined);
      await api.get("/api/me").catch(() => undefined);
      expect(seen).toEqual(["unauthenticated", "password-reset-required"]);

      // An ordinary 403 is the screen's business.
      stubFetch(async () => jsonResponse(403, { code: "FORBIDDEN", message: "No." }));
      await api.get("/api/permits").catch(() => undefined);
      expect(seen).toHaveLength(2);
    } finally {
      off();
    }
  });

  it("validates the response when given a schema", async () => {
    const { z } = await import("zod");
    stubFetch(async () => jsonResponse(200, { id: 1 }));
    await expect(api.get("/api/x", { schema: z.object({ id: z.number() }) })).resolves.toEqual({ id: 1 });
    await expect(api.get("/api/x", { schema: z.object({ id: z.string() }) })).rejects.toMatchObject({
      code: "BAD_RESPONSE",
    });
  });
});
