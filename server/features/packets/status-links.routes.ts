import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { canShareStatus } from "../../access/policies/packet.ts";
import { LinkLimiter } from "../../auth/rate-limit.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize, notFound } from "../../errors.ts";
import { openCheckedDownload } from "../../storage/checked-download.ts";
import { IdSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  ComplianceReportSchema,
  StatusLinkCreateSchema,
  StatusLinkCreatedSchema,
  StatusLinkGoneSchema,
  StatusLinkListSchema,
  StatusLinkSchema,
} from "../../../shared/schemas/compliance.ts";
import { headerFor, targetOf } from "./packets.routes.ts";
import { sendPacket } from "./packet-send.ts";
import { buildReport } from "./report.ts";
import { loadReportHeader, loadReportRows, type ReportTarget } from "./report.query.ts";
import {
  countView,
  createStatusLink,
  linkState,
  linkTarget,
  listStatusLinks,
  presentLink,
  resolveStatusLink,
  revokeStatusLink,
  statusLinkUrl,
} from "./status-links.service.ts";

const errors = errorResponses(400, 401, 403, 404);
const tags = ["status links"];
/** A link's scope: its company, and (for a client's link) that client only. */
const linkScope = (companyId: string) => ({ companyId, clientIds: null });

class LinkGone extends Error {
  constructor(
    readonly state: "expired" | "revoked",
    readonly companyName: string,
  ) {
    super(`status link ${state}`);
  }
}

/**
 * 'Share Status' (issue 30): staff create, list and revoke a project's or client's read-only links;
 * the link's public page reads the same report as the packet, and its packet, without sign-in.
 */
export async function statusLinksRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, storage, config: appConfig } = app.ctx;

  for (const kind of ["projects", "clients"] as const) {
    const targetOfParams = (id: string): ReportTarget =>
      kind === "projects" ? { projectId: id } : { clientId: id };
    const shared = async (request: FastifyRequest, id: string) => {
      const actor = actorOf(request);
      const header = await headerFor(db, actor, targetOfParams(id));
      authorize(canShareStatus(actor, targetOf(header)));
      return { actor, header };
    };
    r.get(
      `/api/${kind}/:id/status-links`,
      {
        schema: {
          tags,
          summary: `The ${kind === "projects" ? "project" : "client"}'s status links, with views`,
          params: z.object({ id: IdSchema }),
          response: { 200: StatusLinkListSchema, ...errors },
        },
      },
      async (request) => {
        const { header } = await shared(request, request.params.id);
        return { links: await listStatusLinks(db, header) };
      },
    );
    r.post(
      `/api/${kind}/:id/status-links`,
      {
        schema: {
          tags,
          summary: "Creates a read-only status link (its URL is shown once; only its hash is kept)",
          params: z.object({ id: IdSchema }),
          body: StatusLinkCreateSchema,
          response: { 201: StatusLinkCreatedSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { actor, header } = await shared(request, request.params.id);
        const { row, token } = await createStatusLink(db, actor, header, request.body.expires_in_days);
        return reply
          .status(201)
          .send({ link: presentLink(row), url: statusLinkUrl(appConfig.publicUrl, token) });
      },
    );
    r.post(
      `/api/${kind}/:id/status-links/:linkId/revoke`,
      {
        schema: {
          tags,
          summary: "Revokes a status link: its page answers 410 from now on",
          params: z.object({ id: IdSchema, linkId: IdSchema }),
          response: { 200: z.object({ link: StatusLinkSchema }), ...errors },
        },
      },
      async (request) => {
        const { actor, header } = await shared(request, request.params.id);
        return { link: presentLink(await revokeStatusLink(db, actor, header, request.params.linkId)) };
      },
    );
  }

  // The public side: the token is the credential (never logged: linkToken), guessing is limited.
  const config = { isPublic: true, linkToken: "token" } as const;
  const limiter = new LinkLimiter(db, "status-link", {
    perIp: appConfig.REQUEST_LINK_IP_LIMIT,
    missesPerIp: appConfig.REQUEST_LINK_MISS_LIMIT,
    windowSeconds: appConfig.SIGNIN_WINDOW_SECONDS,
  });
  const params = z.object({ token: z.string().max(200) });
  const publicErrors = { ...errorResponses(404, 429), 410: StatusLinkGoneSchema };

  async function live(request: FastifyRequest, token: string) {
    await limiter.check(request.ip);
    const found = await resolveStatusLink(db, token);
    if (!found) {
      await limiter.miss(request.ip);
      throw notFound("Status link");
    }
    const state = linkState(found.link);
    if (state !== "active") throw new LinkGone(state, found.companyName);
    const scope = linkScope(found.link.companyId);
    const header = await loadReportHeader(db, scope, linkTarget(found.link));
    return { link: found.link, scope, header };
  }
  async function answering<T>(reply: FastifyReply, step: () => Promise<T>): Promise<T | FastifyReply> {
    try {
      return await step();
    } catch (err) {
      if (err instanceof LinkGone)
        return reply.status(410).send({ state: err.state, company: { name: err.companyName } });
      throw err;
    }
  }
  const noStore = (reply: FastifyReply) =>
    reply.header("cache-control", "private, no-store").header("x-robots-tag", "noindex, nofollow");

  r.get(
    "/api/status-links/:token",
    {
      config,
      schema: {
        tags,
        summary:
          "A status link's page (no sign-in): the compliance report as of now; each call is a counted view",
        params,
        response: {
          200: z.object({ report: ComplianceReportSchema, expires_at: z.string() }),
          ...publicErrors,
        },
      },
    },
    async (request, reply) =>
      answering(reply, async () => {
        const { link, scope, header } = await live(request, request.params.token);
        const rows = await loadReportRows(db, scope, header);
        await countView(db, link.id);
        noStore(reply);
        return { report: buildReport(header, rows), expires_at: link.expiresAt.toISOString() };
      }),
  );

  r.get(
    "/api/status-links/:token/packet.pdf",
    {
      config,
      schema: {
        tags,
        summary: "The status link's compliance packet (PDF), as of now",
        params,
        produces: ["application/pdf"],
        response: { 200: z.any().describe("The PDF"), ...publicErrors },
      },
    },
    async (request, reply) =>
      answering(reply, async () => {
        const { scope, header } = await live(request, request.params.token);
        noStore(reply);
        return sendPacket(reply, { db, storage, log: request.log }, scope, header);
      }),
  );

  r.get(
    "/api/status-links/:token/logo",
    {
      config,
      schema: {
        tags,
        summary: "The company's logo, for the status page (404 when it has none)",
        params,
        produces: ["image/png", "image/jpeg", "image/webp"],
        response: { 200: z.any().describe("The image bytes"), ...publicErrors, ...errorResponses(409) },
      },
    },
    async (request, reply) =>
      answering(reply, async () => {
        const { header } = await live(request, request.params.token);
        if (!header.logo) throw notFound("Logo");
        const logo = await openCheckedDownload(
          storage,
          request.log,
          { key: header.logo.key, size: header.logo.size, sha256: header.logo.sha256 },
          { name: "Logo", ids: { companyId: header.companyId } },
        );
        return reply
          .header("content-type", header.logo.contentType)
          .header("content-length", logo.size)
          .header("x-content-type-options", "nosniff")
          .header("content-security-policy", "default-src 'none'; sandbox")
          .header("cache-control", "private, no-store")
          .send(logo.stream);
      }),
  );
}
