import type { FastifyBaseLogger } from "fastify";
import { isWellFormedPng } from "../../storage/png-check.ts";
import type { Storage } from "../../storage/storage.ts";
import type { ReportHeader } from "./report.query.ts";

const DRAWABLE = new Set(["image/png", "image/jpeg"]);
const MAX_LOGO = 5 * 1024 * 1024;

/**
 * The company's logo for the PDF, read through the storage interface and checked against its row;
 * null without one, for a kind pdfkit cannot draw (WebP) or when it cannot be read (logged: the
 * packet is still made, with the name alone).
 */
export async function packetLogo(
  storage: Storage,
  log: FastifyBaseLogger,
  header: ReportHeader,
): Promise<Buffer | null> {
  const logo = header.logo;
  if (!logo || !DRAWABLE.has(logo.contentType)) return null;
  try {
    const opened = await storage.open(logo.key, { size: logo.size, sha256: logo.sha256 });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of opened.stream) {
      size += (chunk as Buffer).length;
      if (size > MAX_LOGO) return null;
      chunks.push(chunk as Buffer);
    }
    const bytes = Buffer.concat(chunks);
    // A PNG stored before uploads were checked whole: never handed to pdfkit malformed.
    if (logo.contentType === "image/png" && !isWellFormedPng(bytes)) {
      log.warn(
        { companyId: header.companyId },
        "compliance packet: the logo is not a well-formed PNG; made without it",
      );
      return null;
    }
    return bytes;
  } catch (err) {
    log.warn(
      { err, companyId: header.companyId },
      "compliance packet: the logo could not be read; made without it",
    );
    return null;
  }
}
