import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { scopeOf, type Actor } from "../../access/actor.ts";
import { canDownloadPacket, canManagePacketRecipients, packetCan } from "../../access/policies/packet.ts";
import { actorOf } from "../../auth/plugin.ts";
import type { Db } from "../../db/client.ts";
import { authorize } from "../../errors.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { PacketRecipientsInputSchema, PacketRecipientsSchema } from "../../../shared/schemas/compliance.ts";
import { sendPacket } from "./packet-send.ts";
import { listRecipients, replaceRecipients } from "./packet-recipients.ts";
import { loadReportHeader, type ReportHeader, type ReportTarget } from "./report.query.ts";

const errors = errorResponses(400, 401, 403, 404);
const tags = ["compliance packet"];
const pdf = { produces: ["application/pdf"], response: { 200: z.any().describe("The PDF"), ...errors } };

/** The header of a project or client the actor may see (404 outside its scope). */
export const headerFor = (db: Db, actor: Actor, target: ReportTarget) =>
  loadReportHeader(db, scopeOf(actor), target);
export const targetOf = (h: ReportHeader) => ({ companyId: h.companyId, clientId: h.client?.id ?? null });

/**
 * The compliance packet (issue 30): GET .../compliance-packet.pdf of a project or a client (across
 * its projects), scoped like the dashboard; and the project's monthly packet recipients.
 */
export async function packetsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, storage } = app.ctx;

  r.get(
    "/api/projects/:id/compliance-packet.pdf",
    {
      schema: {
        tags,
        summary: "The project's compliance packet (PDF), as of now",
        params: IdParamsSchema,
        ...pdf,
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const header = await headerFor(db, actor, { projectId: request.params.id });
      authorize(canDownloadPacket(actor, targetOf(header)));
      return sendPacket(reply, { db, storage, log: request.log }, scopeOf(actor), header);
    },
  );

  r.get(
    "/api/clients/:id/compliance-packet.pdf",
    {
      schema: {
        tags,
        summary:
          "A client's compliance packet (PDF) across its projects, as of now (a client-user: its own clients)",
        params: IdParamsSchema,
        ...pdf,
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const header = await headerFor(db, actor, { clientId: request.params.id });
      authorize(canDownloadPacket(actor, targetOf(header)));
      return sendPacket(reply, { db, storage, log: request.log }, scopeOf(actor), header);
    },
  );

  const Can = z.object({ download: z.boolean(), share: z.boolean(), recipients: z.boolean() });
  r.get(
    "/api/projects/:id/packet-recipients",
    {
      schema: {
        tags,
        summary: "Who gets the project's compliance packet by e-mail each month (and what the actor may do)",
        params: IdParamsSchema,
        response: { 200: PacketRecipientsSchema.extend({ can: Can }), ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const header = await headerFor(db, actor, { projectId: request.params.id });
      const can = packetCan(actor, targetOf(header));
      authorize(can.download);
      return { emails: can.recipients ? await listRecipients(db, header.project!.id) : [], can };
    },
  );

  r.put(
    "/api/projects/:id/packet-recipients",
    {
      schema: {
        tags,
        summary: "Sets who gets the monthly compliance packet (opt-in per project; an empty list stops it)",
        params: IdParamsSchema,
        body: PacketRecipientsInputSchema,
        response: { 200: PacketRecipientsSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const header = await headerFor(db, actor, { projectId: request.params.id });
      authorize(canManagePacketRecipients(actor, targetOf(header)));
      return { emails: await replaceRecipients(db, actor, header, request.body.emails) };
    },
  );
}
