import { z } from "zod";

export const COMMENT_MAX_LENGTH = 5000;

/** A comment as the API sends it; a client-user never receives one with isInternal true. */
export const CommentSchema = z.object({
  id: z.uuid(),
  text: z.string(),
  userName: z.string(),
  isInternal: z.boolean(),
  createdAt: z.string(),
});
export type Comment = z.infer<typeof CommentSchema>;

export const CommentListSchema = z.object({ comments: z.array(CommentSchema) });
export type CommentList = z.infer<typeof CommentListSchema>;

export const CreateCommentSchema = z.object({
  text: z
    .string({ message: "Comment text is required" })
    .trim()
    .min(1, { message: "Comment text is required" })
    .max(COMMENT_MAX_LENGTH, { message: `Must be at most ${COMMENT_MAX_LENGTH} characters` }),
  /** Ignored (always false) for a client-user. */
  isInternal: z.boolean().default(false),
});
export type CreateComment = z.input<typeof CreateCommentSchema>;

export const CommentResponseSchema = z.object({ comment: CommentSchema });
