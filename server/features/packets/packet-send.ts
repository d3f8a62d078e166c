import type { FastifyBaseLogger, FastifyReply } from "fastify";
import type { Scope } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import type { Storage } from "../../storage/storage.ts";
import { renderPacketPdf } from "./packet-pdf.ts";
import { packetLogo } from "./packet-logo.ts";
import { buildReport } from "./report.ts";
import { loadReportRows, type ReportHeader } from "./report.query.ts";

/** "compliance-packet-harbor-tower-2026-11-27.pdf": plain letters only in the header's name. */
export function packetFilename(header: ReportHeader, now = new Date()): string {
  const name = (header.project?.name ?? header.client?.name ?? "packet")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `compliance-packet-${name || "packet"}-${now.toISOString().slice(0, 10)}.pdf`;
}

/** Reads the rows (one statement), draws the PDF and streams it as the answer. */
export async function sendPacket(
  reply: FastifyReply,
  ctx: { db: Db; storage: Storage; log: FastifyBaseLogger },
  scope: Scope,
  header: ReportHeader,
) {
  const now = new Date();
  const rows = await loadReportRows(ctx.db, scope, header);
  const logo = await packetLogo(ctx.storage, ctx.log, header);
  const doc = renderPacketPdf(buildReport(header, rows, now), { logo });
  return reply
    .header("content-type", "application/pdf")
    .header("content-disposition", `attachment; filename="${packetFilename(header, now)}"`)
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(doc);
}
