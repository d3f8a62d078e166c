import { z } from "zod";
import { isIsoDate } from "../domain/dates.ts";

export const IdSchema = z.uuid({ message: "Must be a valid id" });
export const IdParamsSchema = z.object({ id: IdSchema });

/** A calendar date "YYYY-MM-DD" that exists (rejects 2025-02-30). */
export const IsoDateSchema = z.string().refine(isIsoDate, { message: "Must be a valid date (YYYY-MM-DD)" });

/** Optional date as the forms send it: "" or null mean no date. */
export const OptionalDateSchema = z
  .union([IsoDateSchema, z.literal(""), z.null()])
  .optional()
  .transform((v) => (v ? v : null));

export const ErrorResponseSchema = z.object({
  code: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** A route's error statuses for its `response` schema; every one answers ErrorResponseSchema. */
export function errorResponses<const C extends number>(...codes: C[]): Record<C, typeof ErrorResponseSchema> {
  return Object.fromEntries(codes.map((c) => [c, ErrorResponseSchema])) as Record<
    C,
    typeof ErrorResponseSchema
  >;
}

export const OkSchema = z.object({ ok: z.literal(true) });

/** Trimmed text with a length cap; "" stays "" (use .min(1) for required). */
export const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `Must be at most ${max} characters` });
