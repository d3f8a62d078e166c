import { and, eq, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { scopeOf, type Actor } from "../../access/actor.ts";
import { contactCan } from "../../access/policies/contact.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { pageClause } from "../../db/page-clause.ts";
import { contacts } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import type { ContactKind } from "../../../shared/domain/contacts.ts";
import type {
  Contact,
  ContactChoice,
  ContactListQuery,
  PermitContact,
} from "../../../shared/schemas/contacts.ts";

export type ContactRow = typeof contacts.$inferSelect;

/** A contact of the actor's company (any company for a super-admin), or 404. */
export async function findVisibleContact(
  db: Db,
  actor: Actor,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<ContactRow> {
  const { companyId } = scopeOf(actor);
  const query = db
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, id), companyId ? eq(contacts.companyId, companyId) : undefined));
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  if (!row) throw notFound("Contact");
  return row;
}

interface ListedContact {
  id: string;
  company_id: string;
  company_name: string;
  name: string;
  email: string | null;
  organization: string | null;
  kind: ContactKind;
  phone: string | null;
  notes: string | null;
  permit_count: number;
  total: number;
}

/** `text` inside a LIKE pattern, its wildcards escaped. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The company the actor's reads are about: its own, or the one a super-admin names (null: all). */
const readCompany = (actor: Actor, requested: string | null) => scopeOf(actor).companyId ?? requested;

function listConditions(actor: Actor, query: Pick<ContactListQuery, "company_id" | "q" | "kind">): SQL {
  const company = readCompany(actor, query.company_id);
  const conds: SQL[] = [company ? sql`c.company_id = ${company}` : sql`true`];
  if (query.kind) conds.push(sql`c.kind = ${query.kind}`);
  if (query.q) {
    const p = containing(query.q);
    conds.push(
      sql`(c.name ilike ${p} or c.email ilike ${p} or c.organization ilike ${p} or c.phone ilike ${p})`,
    );
  }
  return sql.join(conds, sql` and `);
}

/**
 * GET /api/contacts in one statement: one page of the company's contacts by name (a super-admin's:
 * every company's, or the one named), searched by name, e-mail, organization or phone, filtered by
 * kind, each with how many permits list it, and the total.
 */
export async function listContacts(
  db: Db,
  actor: Actor,
  query: ContactListQuery,
): Promise<{ contacts: Contact[]; total: number }> {
  const rows = await queryRows<ListedContact>(
    db,
    sql`select c.id, c.company_id, co.name as company_name, c.name, c.email, c.organization, c.kind,
               c.phone, c.notes,
               (select count(*) from permit_contacts pc where pc.contact_id = c.id)::int as permit_count,
               (count(*) over ())::int as total
        from contacts c
        join companies co on co.id = c.company_id
        where ${listConditions(actor, query)}
        order by lower(c.name), c.id
        ${pageClause(query.page_size, (query.page - 1) * query.page_size)}`,
  );
  let total = rows[0]?.total ?? 0;
  // Past the last page the window has no row to count on: count apart (rare: a stale URL).
  if (!rows.length && query.page > 1) {
    const [counted] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from contacts c where ${listConditions(actor, query)}`,
    );
    total = counted?.n ?? 0;
  }
  return { contacts: rows.map((r) => presentContact(actor, r)), total };
}

function presentContact(actor: Actor, r: Omit<ListedContact, "total">): Contact {
  return {
    id: r.id,
    company_id: r.company_id,
    company_name: r.company_name,
    name: r.name,
    email: r.email,
    organization: r.organization,
    kind: r.kind,
    phone: r.phone,
    notes: r.notes,
    permit_count: r.permit_count,
    can: contactCan(actor, { companyId: r.company_id }),
  };
}

/** One contact as the list shows it (the answer of POST and PUT), by id: one statement. */
export async function presentOneContact(db: Db, actor: Actor, id: string): Promise<Contact> {
  const [r] = await queryRows<Omit<ListedContact, "total">>(
    db,
    sql`select c.id, c.company_id, co.name as company_name, c.name, c.email, c.organization, c.kind,
               c.phone, c.notes,
               (select count(*) from permit_contacts pc where pc.contact_id = c.id)::int as permit_count
        from contacts c join companies co on co.id = c.company_id
        where c.id = ${id}`,
  );
  if (!r) throw notFound("Contact");
  return presentContact(actor, r);
}

/**
 * Every contact of one company by name, for a form's picker (the permit form's 'Contacts', the
 * 'Request Document' dialog): the actor's own company, or the one a super-admin names (none named:
 * nothing). The route has checked canListContacts.
 */
export async function listContactsForPicker(
  db: Db,
  actor: Actor,
  companyId: string | null,
): Promise<ContactChoice[]> {
  const company = readCompany(actor, companyId);
  if (!company) return [];
  return db
    .select({
      id: contacts.id,
      name: contacts.name,
      email: contacts.email,
      organization: contacts.organization,
      kind: sql<ContactKind>`${contacts.kind}`,
    })
    .from(contacts)
    .where(eq(contacts.companyId, company))
    .orderBy(sql`lower(${contacts.name})`, contacts.id);
}

/**
 * The contacts a permit lists, as one JSON column of the caller's select (the permit detail stays
 * one statement): [{id, name, organization, kind, email, phone}] by name. `permitId` is the
 * permit's id column of the outer query. Present it with presentPermitContacts().
 */
export const permitContactsColumn = (permitId: PgColumn) =>
  sql<PermitContact[]>`(select coalesce(json_agg(json_build_object(
      'id', c.id, 'name', c.name, 'organization', c.organization, 'kind', c.kind,
      'email', c.email, 'phone', c.phone) order by lower(c.name), c.id), '[]'::json)
    from permit_contacts pc join contacts c on c.id = pc.contact_id
    where pc.permit_id = ${permitId})`;

/** The listed contacts' e-mails, "; "-separated by e-mail (the export's 'Contacts' column). */
export const permitContactEmailsColumn = (permitId: PgColumn) =>
  sql<string | null>`(select string_agg(c.email, '; ' order by lower(c.email))
    from permit_contacts pc join contacts c on c.id = pc.contact_id
    where pc.permit_id = ${permitId} and c.email is not null)`;
