import { z } from "zod";

/** Longest file name kept for display; longer names are shortened, keeping the extension. */
export const ATTACHMENT_FILENAME_MAX = 200;

export const AttachmentSchema = z.object({
  id: z.uuid(),
  /** The uploader's file name, sanitised for display; never a path on the server. */
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
  archived: z.boolean(),
  uploadedByName: z.string().nullable(),
  createdAt: z.string(),
  downloadUrl: z.string(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

export const AttachmentListQuerySchema = z.object({
  include_archived: z
    .enum(["true", "false"], { message: "Must be true or false" })
    .default("false")
    .transform((v) => v === "true"),
});

export const AttachmentListSchema = z.object({ attachments: z.array(AttachmentSchema) });
export type AttachmentList = z.infer<typeof AttachmentListSchema>;

export const AttachmentResponseSchema = z.object({ attachment: AttachmentSchema });
export type AttachmentResponse = z.infer<typeof AttachmentResponseSchema>;
