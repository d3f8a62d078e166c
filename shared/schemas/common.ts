import { z } from "zod";
import { isoDate, optionalIsoDate, uuid } from "./fields.ts";

export const IdSchema = uuid();
export const IdParamsSchema = z.object({ id: IdSchema });

/** A calendar date "YYYY-MM-DD" that exists (rejects 2025-02-30). */
export const IsoDateSchema = isoDate();

/** Optional date as the forms send it: "" or null mean no date. */
export const OptionalDateSchema = optionalIsoDate();

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
