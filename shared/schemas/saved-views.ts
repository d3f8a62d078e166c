import { z } from "zod";
import {
  SAVED_VIEW_NAME_MAX,
  SAVED_VIEW_PARAMS,
  type SavedViewParam,
  type SavedViewParams,
} from "../domain/permit-list.ts";
import { requiredText } from "./fields.ts";
import { PermitListQuerySchema } from "./permit-list-query.ts";

/**
 * A saved view keeps the All Permits URL's filter parameters as the URL has them. They are checked
 * with the list's own query schema, so a view that saves is a view the list accepts.
 */
export const SavedViewParamsSchema = z
  .record(z.string(), z.string().max(300, { message: "Must be at most 300 characters" }))
  .superRefine((params, ctx) => {
    const known = new Set<string>(SAVED_VIEW_PARAMS);
    for (const key of Object.keys(params)) {
      if (!known.has(key)) ctx.addIssue({ code: "custom", path: [key], message: "Unknown filter" });
    }
    const checked = PermitListQuerySchema.safeParse(params);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        ctx.addIssue({ code: "custom", path: issue.path as (string | number)[], message: issue.message });
      }
    }
  })
  // Empty values say nothing: drop them, so equal views compare equal.
  .transform(
    (params) =>
      Object.fromEntries(
        SAVED_VIEW_PARAMS.filter((k) => params[k]).map((k) => [k, params[k]!]),
      ) as SavedViewParams,
  );

const name = requiredText("View name", SAVED_VIEW_NAME_MAX);

/** POST /api/saved-views. */
export const SavedViewInputSchema = z.object({ name, params: SavedViewParamsSchema });
export type SavedViewInput = z.output<typeof SavedViewInputSchema>;

/** PUT /api/saved-views/:id: rename, or keep the name and replace the filters. */
export const SavedViewUpdateSchema = z
  .object({ name: name.optional(), params: SavedViewParamsSchema.optional() })
  .refine((v) => v.name !== undefined || v.params !== undefined, {
    message: "Nothing to change",
  });

export const SavedViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  params: z.record(z.string(), z.string()) as z.ZodType<SavedViewParams>,
  created_at: z.string(),
  updated_at: z.string(),
});
export type SavedView = z.infer<typeof SavedViewSchema>;

export const SavedViewListSchema = z.object({ views: z.array(SavedViewSchema) });
export const SavedViewResponseSchema = z.object({ view: SavedViewSchema });

export type { SavedViewParam };
