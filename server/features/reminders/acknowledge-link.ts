import { eq, sql } from "drizzle-orm";
import { actorFromUser } from "../../access/actor-from-user.ts";
import type { LinkSigner } from "../../auth/link-signer.ts";
import { canAcknowledgeByLink, lifecycleRefusal } from "../../access/policies/lifecycle.ts";
import { lockedWrite } from "../../http/locked-write.ts";
import type { Db } from "../../db/client.ts";
import { companies, permits, users } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { countdownDate } from "../../../shared/domain/lifecycle.ts";
import { isRole } from "../../../shared/domain/roles.ts";
import type { AcknowledgeLink } from "../../../shared/schemas/lifecycle.ts";
import { verifyAcknowledgeToken, type AcknowledgeClaim } from "./acknowledge-token.ts";
import { acknowledgePermit } from "../lifecycle/index.ts";
import { findVisiblePermit } from "../permits/index.ts";
import { openPermit } from "./reminders.eligibility.ts";

// One message for every refusal, so a link tells nothing about permits it does not name.
const INVALID =
  "This Acknowledge link is not valid any more: the permit was renewed, extended or closed since the reminder, or the link is incomplete. Open the permit in Permitrack instead.";
const invalid = () => new AppError(404, "NOT_FOUND", INVALID);

/** The token's permit and recipient, if the token still holds: same term, same countdown date, still staff. */
async function resolve(db: Db, links: LinkSigner, token: string) {
  const claim = verifyAcknowledgeToken(links, token);
  if (!claim) throw invalid();
  const [row] = await db
    // Open as the sweep and the sender mean it: an archived, N/A or closed permit's link is refused.
    .select({ permit: permits, companyName: companies.name, open: sql<boolean>`${openPermit("permits")}` })
    .from(permits)
    .innerJoin(companies, eq(companies.id, permits.companyId))
    .where(eq(permits.id, claim.permitId));
  const [user] = await db.select().from(users).where(eq(users.id, claim.recipientUserId));
  if (!row || !user || user.banned || !isRole(user.role) || !stillHolds(row.permit, claim)) throw invalid();
  const recipient = await actorFromUser(db, { ...user, role: user.role });
  if (!canAcknowledgeByLink(recipient, row.permit) || !row.open) throw invalid();
  return { permit: row.permit, companyName: row.companyName, recipient };
}

const stillHolds = (p: typeof permits.$inferSelect, claim: AcknowledgeClaim) =>
  p.termNo === claim.termNo && countdownDate(p.expirationDate, p.renewalLeadDays) === claim.dueOn;

function present(
  p: typeof permits.$inferSelect,
  companyName: string,
  recipientName: string,
): AcknowledgeLink {
  return {
    permit_name: p.permitName,
    permit_number: p.permitNumber,
    company_name: companyName,
    expiration_date: p.expirationDate,
    renew_by_date: p.renewByDate,
    recipient_name: recipientName,
    acknowledged:
      p.acknowledgedAt && p.acknowledgedByName
        ? { by: p.acknowledgedByName, at: p.acknowledgedAt.toISOString() }
        : null,
  };
}

/** What the link is about, changing nothing (a mail scanner may open it). */
export async function readAcknowledgeLink(
  db: Db,
  links: LinkSigner,
  token: string,
): Promise<AcknowledgeLink> {
  const { permit, companyName, recipient } = await resolve(db, links, token);
  return present(permit, companyName, recipient.name);
}

/** Acknowledges as the reminder's recipient; audited under that user's name. */
export async function acknowledgeByLink(db: Db, links: LinkSigner, token: string): Promise<AcknowledgeLink> {
  const { permit, companyName, recipient } = await resolve(db, links, token);
  const updated = await lockedWrite(db, {
    load: (tx) => findVisiblePermit(tx, recipient, permit.id, { forUpdate: true }),
    allow: (locked) => lifecycleRefusal("acknowledge", recipient, locked),
    write: (tx, locked) => acknowledgePermit(tx, recipient, locked),
  });
  return present(updated, companyName, recipient.name);
}
