import type { Actor } from "../../access/actor.ts";
import { recordPermitAudit } from "../../audit/audit-writer.ts";
import type { LinkSigner } from "../../auth/link-signer.ts";
import type { Db } from "../../db/client.ts";
import { documentRequests } from "../../db/schema.ts";
import { validation } from "../../errors.ts";
import {
  DEFAULT_LINK_DAYS,
  DOCUMENT_KIND_LABELS,
  documentLabel,
  type DocumentKind,
} from "../../../shared/domain/document-requests.ts";
import type { CreateRequestInput } from "../../../shared/schemas/document-requests.ts";
import type { PermitRow } from "../permits/index.ts";
import { ensureContact, findCompanyContact } from "./contact-link.ts";
import { newLinkToken } from "./link-token.ts";
import { enqueueRequestDelivery } from "./request-deliveries.ts";
import type { RequestRow } from "./request-view.ts";

/** Kinds that only make sense on a bond: its ledger takes them. */
const BOND_ONLY: readonly DocumentKind[] = ["bond_rider", "release_letter"];

/** How the trail and the link name the party: "Jane Roe (Acme Surety)". */
export const partyLabel = (r: { partyName: string; partyOrganization: string | null }) =>
  r.partyOrganization ? `${r.partyName} (${r.partyOrganization})` : r.partyName;

/**
 * 'Request Document' on a permit or bond, in the route's transaction with the permit locked: the
 * party (a contact picked, or a new name and e-mail saved as a contact), the request with its link
 * (the token kept only as its hash and sealed copy), the e-mail recorded for the sender, the audit.
 */
export async function createRequest(
  tx: Db,
  actor: Actor,
  links: LinkSigner,
  permit: PermitRow,
  input: CreateRequestInput,
): Promise<RequestRow> {
  if (BOND_ONLY.includes(input.documentKind) && permit.recordType !== "bond") {
    const message = `A ${DOCUMENT_KIND_LABELS[input.documentKind]} is requested on a bond`;
    throw validation({ documentKind: message }, message);
  }
  const contact = input.contactId
    ? await findCompanyContact(tx, permit.companyId, input.contactId)
    : await ensureContact(tx, permit.companyId, {
        name: input.name!,
        email: input.email!,
        organization: input.organization,
      });
  const { hash, sealed } = newLinkToken(links);
  const days = input.expiresInDays ?? DEFAULT_LINK_DAYS;
  const [row] = await tx
    .insert(documentRequests)
    .values({
      companyId: permit.companyId,
      permitId: permit.id,
      contactId: contact.id,
      partyName: contact.name,
      partyEmail: contact.email,
      partyOrganization: contact.organization,
      documentKind: input.documentKind,
      title: input.documentKind === "other" ? input.title : null,
      message: input.message,
      dueDate: input.dueDate,
      fields: [...new Set(input.fields)],
      tokenHash: hash,
      tokenSealed: sealed,
      expiresAt: new Date(Date.now() + days * 86_400_000),
      createdBy: actor.userId,
      createdByName: actor.name,
    })
    .returning();
  await enqueueRequestDelivery(tx, row!, "request");
  await recordPermitAudit(tx, actor, permit, [
    {
      action: "request_sent",
      field: "document_request",
      newValue: documentLabel(input.documentKind, row!.title),
    },
    { action: "request_sent", field: "request_party", newValue: partyLabel(row!) },
  ]);
  return row!;
}
