import { z } from "zod";

/** What an import did (or, for a dry run, would do): spec section 2 "Import Permits from CSV". */
export const ImportResultSchema = z.object({
  dry_run: z.boolean(),
  company: z.object({ id: z.uuid(), name: z.string() }),
  file_name: z.string(),
  total_rows: z.number().int(),
  /** The first 10 data rows as the file has them, under the file's own header. */
  preview: z.object({ columns: z.array(z.string()), rows: z.array(z.array(z.string())) }),
  inserted: z.array(z.object({ row: z.number().int(), permit_number: z.string(), project: z.string() })),
  skipped: z.array(
    z.object({ row: z.number().int(), permit_number: z.string(), project: z.string(), reason: z.string() }),
  ),
  rejected: z.array(z.object({ row: z.number().int(), reason: z.string() })),
  projects_created: z.array(z.string()),
  clients_created: z.array(z.string()),
  /**
   * Issue 29: the optional conditions file (multipart field `conditions`), one condition per row;
   * null without one. Its rows' numbers are the conditions file's own (header = row 1).
   */
  conditions: z
    .object({
      file_name: z.string(),
      total_rows: z.number().int(),
      added: z.array(z.object({ row: z.number().int(), permit_number: z.string(), title: z.string() })),
      rejected: z.array(z.object({ row: z.number().int(), reason: z.string() })),
    })
    .nullable(),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

export const ImportQuerySchema = z.object({
  dry_run: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
});
