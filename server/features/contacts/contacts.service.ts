import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { recordEvent } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { contacts } from "../../db/schema.ts";
import { conflict } from "../../errors.ts";
import { CONTACT_EMAIL_TAKEN, type ContactKind } from "../../../shared/domain/contacts.ts";
import type { ContactInput } from "../../../shared/schemas/contacts.ts";
import type { ContactRow } from "./contacts.repository.ts";

const columnsOf = (input: ContactInput) => ({
  name: input.name,
  email: input.email?.toLowerCase() ?? null,
  organization: input.organization,
  kind: input.kind,
  phone: input.phone,
  notes: input.notes,
});

/** The unique index on (company, lower(e-mail)) as the API's 409, on the field. */
function emailTaken(err: unknown): never {
  if (uniqueViolation(err) === "contacts_company_email_uq")
    throw conflict(CONTACT_EMAIL_TAKEN, { email: CONTACT_EMAIL_TAKEN });
  throw err;
}

/** 'Add Contact' (the admin page; staff from the pickers): audited as contact.create. */
export async function createContact(
  db: Db,
  actor: Actor,
  companyId: string,
  input: ContactInput,
): Promise<ContactRow> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(contacts)
        .values({ companyId, ...columnsOf(input) })
        .returning();
      await recordEvent(tx, actor, {
        action: "contact.create",
        entityType: "contact",
        entityId: row!.id,
        companyId,
        details: { name: row!.name },
      });
      return row!;
    });
  } catch (err) {
    emailTaken(err);
  }
}

/** Saves a contact's fields; the audit entry names the fields that changed (not their values). */
export async function updateContact(db: Db, actor: Actor, current: ContactRow, input: ContactInput) {
  const values = columnsOf(input);
  const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
    (k) => (values[k] ?? null) !== (current[k] ?? null),
  );
  if (!changed.length) return current;
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .update(contacts)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(contacts.id, current.id))
        .returning();
      await recordEvent(tx, actor, {
        action: "contact.update",
        entityType: "contact",
        entityId: current.id,
        companyId: current.companyId,
        details: { fields: changed },
      });
      return row!;
    });
  } catch (err) {
    emailTaken(err);
  }
}

/**
 * Deletes a contact. It is never refused: the permits that list it simply lose it (permit_contacts
 * goes by cascade), and the deletion is audited once, with the contact's name and the number of
 * permits it was taken off. Document requests sent to it keep the party's copied name and e-mail
 * (their contact_id becomes null).
 */
export async function deleteContact(db: Db, actor: Actor, contact: ContactRow): Promise<void> {
  await db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(contacts)
      .where(eq(contacts.id, contact.id))
      .returning({
        id: contacts.id,
        // Read before the cascade runs (the statement's snapshot).
        permits: sql<number>`(select count(*) from permit_contacts pc where pc.contact_id = ${contacts.id})::int`,
      });
    await recordEvent(tx, actor, {
      action: "contact.delete",
      entityType: "contact",
      entityId: contact.id,
      companyId: contact.companyId,
      details: { name: contact.name, unlinkedPermits: gone?.permits ?? 0 },
    });
  });
}

/**
 * The company's contact with this e-mail (any case), else a new one with these fields; returns the
 * row. For the 'Request Document' dialog (a party typed in) inside the caller's transaction. An
 * existing contact is returned as it is (its name and organization are not overwritten). The new
 * contact is audited as contact.create when an actor is given.
 */
export async function ensureContact(
  tx: Db,
  companyId: string,
  input: { name: string; email: string; organization?: string | null; kind?: ContactKind },
  actor?: Actor,
): Promise<ContactRow> {
  const email = input.email.trim().toLowerCase();
  const find = async () => {
    const [row] = await tx
      .select()
      .from(contacts)
      .where(
        and(
          eq(contacts.companyId, companyId),
          isNotNull(contacts.email),
          eq(sql`lower(${contacts.email})`, email),
        ),
      );
    return row;
  };
  const found = await find();
  if (found) return found;
  const [inserted] = await tx
    .insert(contacts)
    .values({
      companyId,
      name: input.name.trim() || email,
      email,
      organization: input.organization?.trim() || null,
      kind: input.kind ?? "other",
    })
    .onConflictDoNothing()
    .returning();
  if (!inserted) return (await find())!; // a concurrent writer made it meanwhile
  if (actor) {
    await recordEvent(tx, actor, {
      action: "contact.create",
      entityType: "contact",
      entityId: inserted.id,
      companyId,
      details: { name: inserted.name },
    });
  }
  return inserted;
}
