import { and, asc, eq, notInArray } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { recordEvent } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import { packetRecipients } from "../../db/schema.ts";
import type { ReportHeader } from "./report.query.ts";

/** The project's monthly packet recipients, in the order added. */
export async function listRecipients(db: Db, projectId: string): Promise<string[]> {
  const rows = await db
    .select({ email: packetRecipients.email })
    .from(packetRecipients)
    .where(eq(packetRecipients.projectId, projectId))
    .orderBy(asc(packetRecipients.createdAt), asc(packetRecipients.email));
  return rows.map((r) => r.email);
}

/** Replaces the list (the e-mails lower-cased, duplicates once), audited in the same transaction. */
export async function replaceRecipients(db: Db, actor: Actor, header: ReportHeader, emails: string[]) {
  const project = header.project!;
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
  await db.transaction(async (tx) => {
    const before = await listRecipients(tx, project.id);
    await tx
      .delete(packetRecipients)
      .where(
        and(
          eq(packetRecipients.projectId, project.id),
          wanted.length ? notInArray(packetRecipients.email, wanted) : undefined,
        ),
      );
    if (wanted.length) {
      await tx
        .insert(packetRecipients)
        .values(wanted.map((email) => ({ companyId: header.companyId, projectId: project.id, email })))
        .onConflictDoNothing();
    }
    const added = wanted.filter((e) => !before.includes(e));
    const removed = before.filter((e) => !wanted.includes(e));
    if (added.length || removed.length) {
      await recordEvent(tx, actor, {
        action: "packet_recipients_changed",
        entityType: "project",
        entityId: project.id,
        companyId: header.companyId,
        details: { name: project.name, added, removed },
      });
    }
  });
  return listRecipients(db, project.id);
}
