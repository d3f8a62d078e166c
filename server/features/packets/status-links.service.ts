import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { recordEvent } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import { companies, statusLinks } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import type { StatusLink } from "../../../shared/schemas/compliance.ts";
import type { ReportHeader, ReportTarget } from "./report.query.ts";

// Status links (issue 30, 'Share Status'): 32 random bytes, base64url, in the link only; the row
// keeps the SHA-256 (hex) to find it. Never stored, logged or shown again after creation.

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
export const hashStatusToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
export const isStatusTokenShape = (token: string) => TOKEN_SHAPE.test(token);
export const statusLinkUrl = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, "")}/status/${token}`;

type LinkRow = typeof statusLinks.$inferSelect;

export function linkState(row: Pick<LinkRow, "revokedAt" | "expiresAt">, now = new Date()) {
  if (row.revokedAt) return "revoked" as const;
  if (row.expiresAt.getTime() <= now.getTime()) return "expired" as const;
  return "active" as const;
}

export const presentLink = (row: LinkRow): StatusLink => ({
  id: row.id,
  created_at: row.createdAt.toISOString(),
  created_by: row.createdByName,
  expires_at: row.expiresAt.toISOString(),
  revoked_at: row.revokedAt?.toISOString() ?? null,
  view_count: row.viewCount,
  last_viewed_at: row.lastViewedAt?.toISOString() ?? null,
  state: linkState(row),
});

const targetCondition = (header: ReportHeader) =>
  header.project ? eq(statusLinks.projectId, header.project.id) : eq(statusLinks.clientId, header.client!.id);

const auditTarget = (header: ReportHeader) =>
  header.project
    ? { entityType: "project", entityId: header.project.id, name: header.project.name }
    : { entityType: "client", entityId: header.client!.id, name: header.client!.name };

/** The links of a project or client, newest first. */
export async function listStatusLinks(db: Db, header: ReportHeader): Promise<StatusLink[]> {
  const rows = await db
    .select()
    .from(statusLinks)
    .where(and(eq(statusLinks.companyId, header.companyId), targetCondition(header)))
    .orderBy(desc(statusLinks.createdAt), desc(statusLinks.id));
  return rows.map(presentLink);
}

/** A new link with its token (returned once), audited in the same transaction. */
export async function createStatusLink(db: Db, actor: Actor, header: ReportHeader, days: number) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + days * 86_400_000);
  const target = auditTarget(header);
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(statusLinks)
      .values({
        companyId: header.companyId,
        projectId: header.project?.id ?? null,
        clientId: header.project ? null : header.client!.id,
        tokenHash: hashStatusToken(token),
        createdBy: actor.userId,
        createdByName: actor.name,
        expiresAt,
      })
      .returning();
    await recordEvent(tx, actor, {
      action: "status_link_created",
      entityType: target.entityType,
      entityId: target.entityId,
      companyId: header.companyId,
      details: { linkId: created!.id, name: target.name, expiresAt: expiresAt.toISOString() },
    });
    return created!;
  });
  return { row, token };
}

/** Revokes a link of this project or client (404 for any other); revoking twice changes nothing. */
export async function revokeStatusLink(db: Db, actor: Actor, header: ReportHeader, linkId: string) {
  const target = auditTarget(header);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(statusLinks)
      .where(
        and(eq(statusLinks.id, linkId), eq(statusLinks.companyId, header.companyId), targetCondition(header)),
      )
      .for("update");
    if (!row) throw notFound("Status link");
    if (row.revokedAt) return row;
    const [revoked] = await tx
      .update(statusLinks)
      .set({ revokedAt: new Date() })
      .where(eq(statusLinks.id, row.id))
      .returning();
    await recordEvent(tx, actor, {
      action: "status_link_revoked",
      entityType: target.entityType,
      entityId: target.entityId,
      companyId: header.companyId,
      details: { linkId: row.id, name: target.name },
    });
    return revoked!;
  });
}

/** The link a token names (with its company's name), or null for an unknown or malformed token. */
export async function resolveStatusLink(db: Db, token: string) {
  if (!isStatusTokenShape(token)) return null;
  const [row] = await db
    .select({ link: statusLinks, companyName: companies.name })
    .from(statusLinks)
    .innerJoin(companies, eq(companies.id, statusLinks.companyId))
    .where(eq(statusLinks.tokenHash, hashStatusToken(token)));
  return row ?? null;
}

/** Counts a view of the link's page. */
export async function countView(db: Db, linkId: string) {
  await db
    .update(statusLinks)
    .set({ viewCount: sql`${statusLinks.viewCount} + 1`, lastViewedAt: new Date() })
    .where(eq(statusLinks.id, linkId));
}

/** What the link shows: its project, or its client across its projects. */
export const linkTarget = (link: LinkRow): ReportTarget =>
  link.projectId ? { projectId: link.projectId } : { clientId: link.clientId! };
