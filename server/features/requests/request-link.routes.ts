import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { LinkLimiter } from "../../auth/rate-limit.ts";
import { companies } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import { openCheckedDownload } from "../../storage/checked-download.ts";
import { ErrorResponseSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  LinkFileResponseSchema,
  LinkGoneSchema,
  LinkPageSchema,
  LinkSubmittedSchema,
  LinkTokenParamsSchema,
  SubmitInputSchema,
} from "../../../shared/schemas/document-requests.ts";
import { LinkGone } from "./link-gone.ts";
import { receivePartyFile } from "./party-upload.ts";
import { submitAnswer } from "./party-submit.ts";
import { goneState, openLinkPage, resolveLink, type LinkContext } from "./public-link.ts";

const errors = { ...errorResponses(400, 404, 409, 429), 410: LinkGoneSchema };
const tags = ["document requests"];
// No sign-in; the token is the credential, so the log never shows it (linkToken).
const config = { isPublic: true, linkToken: "token" } as const;

/**
 * The outside party's link (issue 27): the request's page, the company's logo, uploading files and
 * submitting. Every call counts against the caller's address, and an unknown token counts again,
 * so guessing is limited (LinkLimiter); a link reaches its own request only.
 */
export async function requestLinkRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, storage, config: appConfig } = app.ctx;
  const limiter = new LinkLimiter(db, "request-link", {
    perIp: appConfig.REQUEST_LINK_IP_LIMIT,
    missesPerIp: appConfig.REQUEST_LINK_MISS_LIMIT,
    windowSeconds: appConfig.SIGNIN_WINDOW_SECONDS,
  });

  /** The link's request, or 404 (counted as a miss), or 410 with its state when expired or revoked. */
  async function live(request: FastifyRequest, token: string): Promise<LinkContext> {
    await limiter.check(request.ip);
    const link = await resolveLink(db, token);
    if (!link) {
      await limiter.miss(request.ip);
      throw notFound("Request");
    }
    const gone = goneState(link.request);
    if (gone) throw new LinkGone(gone, link.company.name);
    return link;
  }

  /** A gone link answers 410 with its state and the company's name, whichever step found it. */
  async function answering<T>(reply: FastifyReply, step: () => Promise<T>): Promise<T | FastifyReply> {
    try {
      return await step();
    } catch (err) {
      if (err instanceof LinkGone)
        return reply.status(410).send({ state: err.state, company: { name: err.companyName } });
      throw err;
    }
  }

  r.get(
    "/api/request-links/:token",
    {
      config,
      schema: {
        tags,
        summary:
          "A document request's page for the party (no sign-in): what is asked, by whom, and the party's own uploads",
        params: LinkTokenParamsSchema,
        response: { 200: LinkPageSchema, ...errors },
      },
    },
    async (request, reply) =>
      answering(reply, async () => openLinkPage(db, await live(request, request.params.token))),
  );

  r.get(
    "/api/request-links/:token/logo",
    {
      config,
      schema: {
        tags,
        summary: "The requesting company's logo, for the link's page (404 when it has none)",
        params: LinkTokenParamsSchema,
        produces: ["image/png", "image/jpeg", "image/webp"],
        response: { 200: z.any().describe("The image bytes"), ...errors, 409: ErrorResponseSchema },
      },
    },
    async (request, reply) =>
      answering(reply, async () => {
        const link = await live(request, request.params.token);
        const [company] = await db
          .select({
            logoKey: companies.logoKey,
            logoContentType: companies.logoContentType,
            logoSize: companies.logoSize,
            logoSha256: companies.logoSha256,
          })
          .from(companies)
          .where(eq(companies.id, link.company.id));
        if (!company?.logoKey || !company.logoContentType) throw notFound("Logo");
        const logo = await openCheckedDownload(
          storage,
          request.log,
          { key: company.logoKey, size: company.logoSize, sha256: company.logoSha256 },
          { name: "Logo", ids: { companyId: link.company.id } },
        );
        return reply
          .header("content-type", company.logoContentType)
          .header("content-length", logo.size)
          .header("x-content-type-options", "nosniff")
          .header("content-security-policy", "default-src 'none'; sandbox")
          .header("cache-control", "private, no-store")
          .send(logo.stream);
      }),
  );

  r.post(
    "/api/request-links/:token/files",
    {
      config,
      schema: {
        tags,
        summary: 'Upload a file to the request (multipart, one field named "file"; the attachments\' limits)',
        consumes: ["multipart/form-data"],
        params: LinkTokenParamsSchema,
        response: { 201: LinkFileResponseSchema, ...errors, 413: ErrorResponseSchema },
      },
    },
    async (request, reply) =>
      answering(reply, async () => {
        const link = await live(request, request.params.token);
        const file = await receivePartyFile(app, request, link);
        return reply.status(201).send({
          file: {
            id: file.id,
            filename: file.filename,
            size: file.size,
            createdAt: file.createdAt.toISOString(),
          },
        });
      }),
  );

  r.post(
    "/api/request-links/:token/submit",
    {
      config,
      schema: {
        tags,
        summary: "Submit the uploaded files and the values asked for, for review",
        params: LinkTokenParamsSchema,
        body: SubmitInputSchema,
        response: { 200: LinkSubmittedSchema, ...errors },
      },
    },
    async (request, reply) =>
      answering(reply, async () => {
        await submitAnswer(db, await live(request, request.params.token), request.body);
        return { state: "submitted" as const };
      }),
  );
}
