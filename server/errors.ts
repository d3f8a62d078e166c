import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { databaseUnavailable, uniqueViolation } from "./db/errors.ts";

/** Stable error codes the API answers with; the web client switches on these, never on messages. */
export type ErrorCode =
  | "VALIDATION"
  | "UNAUTHENTICATED"
  | "INVALID_CREDENTIALS"
  | "ACCOUNT_DISABLED"
  | "PASSWORD_RESET_REQUIRED"
  | "TWO_FACTOR_SETUP_REQUIRED"
  /** The sign-in code step after too many wrong codes in a row, until an admin resets it. */
  | "TWO_FACTOR_LOCKED"
  /** A stored second factor that no longer decrypts (SESSION_SECRET changed). */
  | "TWO_FACTOR_UNREADABLE"
  /** An authenticator code whose time step was already accepted. */
  | "CODE_ALREADY_USED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  /** Closing a permit that has open condition tasks without `closeOpenTasks: true` (issue 29). */
  | "OPEN_TASKS"
  /** A stored file whose bytes are no longer the ones recorded at upload (never served). */
  | "FILE_CHANGED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "RATE_LIMITED"
  | "CSRF"
  | "UNAVAILABLE"
  | "INTERNAL";

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
    /** Logged at error level when answered: what the operator must know (the client gets `message`). */
    readonly operatorNote?: { message: string; details?: Record<string, unknown> },
  ) {
    super(message);
  }
}

export const notFound = (what = "Record") => new AppError(404, "NOT_FOUND", `${what} not found.`);
export const forbidden = (message = "Permission denied. Please check your access rights.") =>
  new AppError(403, "FORBIDDEN", message);
export const unauthenticated = (message = "Not authenticated.") =>
  new AppError(401, "UNAUTHENTICATED", message);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new AppError(409, "CONFLICT", message, fields);
export const validation = (fields: Record<string, string>, message?: string) =>
  new AppError(400, "VALIDATION", message ?? Object.values(fields)[0] ?? "Invalid input.", fields);

/**
 * Why an actor may not do something to a record, as a policy says it (server/access/policies):
 * the route answers with it, and the record's `can` flag is its absence, so the two never differ.
 */
export interface Refusal {
  status: 403 | 409;
  message: string;
}
export const refuse = {
  forbidden: (message?: string): Refusal => ({ status: 403, message: message ?? forbidden().message }),
  conflict: (message: string): Refusal => ({ status: 409, message }),
};

/** Throws the refusal's answer (403 or 409) unless the verdict allows: `true`, or no refusal. */
export function allow(verdict: boolean | Refusal | null): void {
  if (verdict === true || verdict === null) return;
  if (verdict === false) throw forbidden();
  throw verdict.status === 409 ? conflict(verdict.message) : forbidden(verdict.message);
}

// What the multipart parser (busboy) throws on a body that is not well-formed multipart: no boundary,
// broken part headers, a body that ends before its closing boundary. Plain Errors without a status.
const MULTIPART_PARSE_ERRORS =
  /^(Multipart: |Unexpected end of (multipart data|form)|Malformed part header|Part terminated early)/;

/** True for an error of a malformed or truncated multipart body (a client's fault: 400, not 500). */
export function malformedMultipart(err: unknown): boolean {
  const e = err as { message?: unknown; statusCode?: unknown };
  return (
    e?.statusCode === undefined && typeof e?.message === "string" && MULTIPART_PARSE_ERRORS.test(e.message)
  );
}

/** Throws `forbidden()` unless the condition holds; narrows like an assertion. */
export function authorize(condition: boolean, message?: string): asserts condition {
  if (!condition) throw forbidden(message);
}

/**
 * One error handler for the whole app: known errors keep their status and code; anything else is
 * logged with the request and answered 500 without details (no stack traces leave the server).
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.operatorNote) request.log.error(err.operatorNote.details ?? {}, err.operatorNote.message);
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.status).send({ code: err.code, message: err.message, fields: err.fields });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const issue of err.validation) {
        const key = issue.instancePath.replace(/^\//, "").replace(/\//g, ".") || "_";
        fields[key] ??= issue.message ?? "Invalid value";
      }
      const first = Object.entries(fields)[0];
      const message = first ? (first[0] === "_" ? first[1] : `${first[0]}: ${first[1]}`) : "Invalid input.";
      return reply.status(400).send({ code: "VALIDATION", message, fields });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, cause: err.cause }, "response did not match its schema");
      return reply.status(500).send({ code: "INTERNAL", message: "Something went wrong. Please try again." });
    }
    if (malformedMultipart(err)) {
      const message = "The upload was malformed or cut off. Please choose the file and try again.";
      return reply.status(400).send({ code: "VALIDATION", message, fields: { file: message } });
    }
    // A uniqueness rule the service did not name (it names the ones users meet) still answers 409.
    if (uniqueViolation(err) !== null) {
      return reply.status(409).send({ code: "CONFLICT", message: "This record already exists." });
    }
    if (databaseUnavailable(err)) {
      request.log.error({ err }, "database unavailable");
      return reply.status(503).header("retry-after", "5").send({
        code: "UNAVAILABLE",
        message: "The service is temporarily unavailable. Please try again in a moment.",
      });
    }
    const status = err.statusCode ?? 500;
    if (
      status === 413 ||
      err.code === "FST_REQ_FILE_TOO_LARGE" ||
      err.code === "FST_ERR_CTP_BODY_TOO_LARGE"
    ) {
      return reply.status(413).send({ code: "PAYLOAD_TOO_LARGE", message: "The upload is too large." });
    }
    if (status === 415) {
      return reply
        .status(415)
        .send({ code: "UNSUPPORTED_MEDIA_TYPE", message: "Send JSON (application/json)." });
    }
    if (status === 429) {
      return reply
        .status(429)
        .send({ code: "RATE_LIMITED", message: "Too many requests. Please wait and try again." });
    }
    if (status >= 400 && status < 500) {
      return reply
        .status(status)
        .send({ code: status === 404 ? "NOT_FOUND" : "VALIDATION", message: err.message });
    }
    request.log.error({ err }, "unhandled error");
    return reply.status(500).send({ code: "INTERNAL", message: "Something went wrong. Please try again." });
  });
}
