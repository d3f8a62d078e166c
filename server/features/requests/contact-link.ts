import { and, asc, eq, sql } from "drizzle-orm";
import { queryRows, type Db } from "../../db/client.ts";
import { contacts } from "../../db/schema.ts";
import { validation } from "../../errors.ts";

// STAND-IN until the contacts feature (branch i27-contacts) lands on main: it exports
// listContactsForPicker(db, actor, companyId) and ensureContact(tx, companyId, {...}) from
// server/features/contacts/index.ts. Swap these three functions for those; nothing else here
// touches the contacts tables.

export interface PickerContact {
  id: string;
  name: string;
  email: string | null;
  organization: string | null;
  kind: "agency" | "surety_agent" | "subcontractor" | "owner" | "other";
}

/** The company's contacts with an e-mail, the permit's listed ones first, then by name. */
export async function listContactsForPicker(
  db: Db,
  companyId: string,
  permitId: string,
): Promise<PickerContact[]> {
  return queryRows<PickerContact>(
    db,
    sql`select c.id, c.name, c.email, c.organization, c.kind
        from contacts c
        left join permit_contacts pc on pc.contact_id = c.id and pc.permit_id = ${permitId}
        where c.company_id = ${companyId} and c.email is not null
        order by (pc.contact_id is null), c.name, c.id`,
  );
}

/** The company's contact `id`, or 400 on the field (another company's contact is not found either). */
export async function findCompanyContact(tx: Db, companyId: string, id: string) {
  const [row] = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, id), eq(contacts.companyId, companyId)))
    .orderBy(asc(contacts.id));
  if (!row) throw validation({ contactId: "Choose a contact of this company" });
  if (!row.email) throw validation({ contactId: "This contact has no e-mail address" });
  return row as typeof row & { email: string };
}

/** The company's contact with this e-mail (any case), created with the name given when there is none. */
export async function ensureContact(
  tx: Db,
  companyId: string,
  c: { name: string; email: string; organization?: string | null; kind?: PickerContact["kind"] },
) {
  await tx
    .insert(contacts)
    .values({
      companyId,
      name: c.name,
      email: c.email,
      organization: c.organization ?? null,
      kind: c.kind ?? "other",
    })
    .onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), sql`lower(${contacts.email}) = ${c.email.toLowerCase()}`));
  return row! as typeof row & { email: string };
}
