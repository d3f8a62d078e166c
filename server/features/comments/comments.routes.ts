import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  canCommentOnPermit,
  canViewComments,
  canWriteInternalComment,
} from "../../access/policies/comment.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  CommentListSchema,
  CommentResponseSchema,
  CreateCommentSchema,
} from "../../../shared/schemas/comments.ts";
import { findVisiblePermit } from "../permits/index.ts";
import { addComment, listVisibleComments } from "./comments.service.ts";

const errors = errorResponses(400, 401, 403, 404);

/** A permit's comments and notes; a client-user never sees, nor writes, an internal one. */
export async function commentsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/permits/:id/comments",
    {
      schema: {
        tags: ["comments"],
        summary: "A permit's comments, oldest first",
        params: IdParamsSchema,
        response: { 200: CommentListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const found = await listVisibleComments(db, actor, request.params.id);
      authorize(canViewComments(actor, found.permit));
      return { comments: found.comments };
    },
  );

  r.post(
    "/api/permits/:id/comments",
    {
      schema: {
        tags: ["comments"],
        summary: "Add a comment (internal ones are for staff only)",
        params: IdParamsSchema,
        body: CreateCommentSchema,
        response: { 201: CommentResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const permit = await findVisiblePermit(db, actor, request.params.id);
      authorize(canCommentOnPermit(actor, permit));
      // Whoever may not write an internal comment has the flag ignored, not refused.
      const isInternal = request.body.isInternal && canWriteInternalComment(actor, permit);
      const comment = await addComment(db, actor, permit, { text: request.body.text, isInternal });
      return reply.status(201).send({ comment });
    },
  );
}
