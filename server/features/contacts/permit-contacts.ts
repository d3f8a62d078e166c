import { and, eq, inArray, isNotNull, notInArray, sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { canViewContactDetails } from "../../access/policies/contact.ts";
import { recordPermitAudit } from "../../audit/audit-writer.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { contacts, permitContacts } from "../../db/schema.ts";
import { validation } from "../../errors.ts";
import { CONTACT_NOT_IN_COMPANY, CONTACTS_SEPARATOR } from "../../../shared/domain/contacts.ts";
import type { PermitContact } from "../../../shared/schemas/contacts.ts";

const CHUNK = 500;

/** The uuid[] parameter of a list of ids (drizzle would send a list of parameters). */
const uuidArray = (ids: string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;

/**
 * The contacts a permit lists, from its form (issue 27), inside the form's transaction: `ids` are
 * the contacts it should list now (each one of the permit's company, else 400 on contact_ids and
 * the whole save rolls back). Left out (undefined), the permit keeps its contacts, unless it moved
 * to another company (`companyChanged`): then it lists none, as its project and client change too.
 * A change on an existing permit is audited on the permit as "Contacts", by name (never e-mails:
 * a client-user reads the trail). One read; a delete and an insert only when something changed.
 */
export async function syncPermitContacts(
  tx: Db,
  actor: Actor,
  permit: { id: string; companyId: string },
  ids: string[] | undefined,
  opts: { isNew?: boolean; companyChanged?: boolean } = {},
): Promise<void> {
  if (ids === undefined) {
    if (opts.companyChanged) await tx.delete(permitContacts).where(eq(permitContacts.permitId, permit.id));
    return;
  }
  const wanted = [...new Set(ids)];
  if (opts.isNew && !wanted.length) return;
  // The wanted contacts and the listed ones, with whether each is of the permit's company.
  const rows = await queryRows<{ id: string; name: string; in_company: boolean; listed: boolean }>(
    tx,
    sql`select c.id, c.name, c.company_id = ${permit.companyId} as in_company,
               exists (select 1 from permit_contacts pc where pc.permit_id = ${permit.id} and pc.contact_id = c.id)
                 as listed
        from contacts c
        where c.id = any(${uuidArray(wanted)})
           or c.id in (select pc.contact_id from permit_contacts pc where pc.permit_id = ${permit.id})
        order by lower(c.name), c.id`,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  if (wanted.some((id) => !byId.get(id)?.in_company)) {
    throw validation({ contact_ids: CONTACT_NOT_IN_COMPANY }, CONTACT_NOT_IN_COMPANY);
  }
  const keep = new Set(wanted);
  const removed = rows.filter((r) => r.listed && !keep.has(r.id));
  const added = wanted.filter((id) => !byId.get(id)!.listed);
  if (!removed.length && !added.length) return;
  if (removed.length) {
    const others = wanted.length ? notInArray(permitContacts.contactId, wanted) : undefined;
    await tx.delete(permitContacts).where(and(eq(permitContacts.permitId, permit.id), others));
  }
  if (added.length) {
    await tx
      .insert(permitContacts)
      .values(added.map((contactId) => ({ companyId: permit.companyId, permitId: permit.id, contactId })))
      .onConflictDoNothing();
  }
  if (opts.isNew) return;
  const names = (list: { name: string }[]) => list.map((r) => r.name).join(CONTACTS_SEPARATOR) || null;
  await recordPermitAudit(tx, actor, permit, [
    {
      action: "update",
      field: "contacts",
      oldValue: names(rows.filter((r) => r.listed)),
      newValue: names(rows.filter((r) => keep.has(r.id))),
    },
  ]);
}

/** A permit's contacts as its page shows them to this actor: e-mail and phone for staff only. */
export function presentPermitContacts(actor: Actor, list: PermitContact[] | null): PermitContact[] {
  const details = canViewContactDetails(actor);
  return (list ?? []).map((c) => ({
    id: c.id,
    name: c.name,
    organization: c.organization,
    kind: c.kind,
    email: details ? c.email : null,
    phone: details ? c.phone : null,
  }));
}

/**
 * The company's contacts by e-mail (lower-cased keys), for the import: one read per 500 e-mails.
 * An e-mail no contact has is absent from the answer.
 */
export async function contactsByEmail(
  db: Db,
  companyId: string,
  emails: string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const unique = [...new Set(emails.map((e) => e.toLowerCase()))];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await db
      .select({ id: contacts.id, email: contacts.email })
      .from(contacts)
      .where(
        and(
          eq(contacts.companyId, companyId),
          isNotNull(contacts.email),
          inArray(sql`lower(${contacts.email})`, unique.slice(i, i + CHUNK)),
        ),
      );
    for (const r of rows) found.set(r.email!.toLowerCase(), r.id);
  }
  return found;
}

/** Links imported permits to their contacts: one insert per 5,000 links, in the import's transaction. */
export async function linkPermitContacts(
  tx: Db,
  companyId: string,
  links: { permitId: string; contactId: string }[],
) {
  for (let i = 0; i < links.length; i += CHUNK * 10) {
    await tx
      .insert(permitContacts)
      .values(links.slice(i, i + CHUNK * 10).map((l) => ({ companyId, ...l })))
      .onConflictDoNothing();
  }
}
