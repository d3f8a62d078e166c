import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { hasUnstorableText, UNSTORABLE_TEXT_MESSAGE } from "../../shared/domain/text.ts";
import { validation } from "../errors.ts";

/** Deeper than any request of ours; deeper input is refused before anything walks it recursively. */
export const MAX_INPUT_DEPTH = 32;

type Finding = { path: string; kind: "text" | "depth" };

/**
 * The first place in a parsed value (body, query, params) that the database could not store, or that
 * nests deeper than MAX_INPUT_DEPTH. Object keys count as text too. Iterative, so a hostile nesting
 * cannot exhaust the stack.
 */
export function findUnsafeInput(value: unknown): Finding | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: "", depth: 0 }];
  while (stack.length) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === "string") {
      if (hasUnstorableText(v)) return { path, kind: "text" };
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (depth >= MAX_INPUT_DEPTH) return { path, kind: "depth" };
    for (const [key, child] of Object.entries(v)) {
      const childPath = path ? `${path}.${key}` : key;
      if (hasUnstorableText(key)) return { path: childPath, kind: "text" };
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * Refuses, before validation, any request whose params, query string or JSON body holds text the
 * database cannot store or nests absurdly deep: a 400 with the field named, instead of a 500 from
 * the driver halfway through a write (or a cut-off export). Multipart parts and CSV cells are
 * checked where they are read (features/attachments/receive-upload.ts, the imports route, the CSV
 * reader).
 */
export const inputGuard = fp(async (app: FastifyInstance) => {
  app.addHook("preValidation", async (request) => {
    for (const value of [request.params, request.query, request.body]) {
      const found = findUnsafeInput(value);
      if (!found) continue;
      const field = found.path || "_";
      if (found.kind === "depth") {
        throw validation(
          { [field]: "The request is nested too deeply." },
          "The request is nested too deeply.",
        );
      }
      throw validation({ [field]: UNSTORABLE_TEXT_MESSAGE }, UNSTORABLE_TEXT_MESSAGE);
    }
  });
});
