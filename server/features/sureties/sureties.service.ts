import { and, eq, inArray, sql } from "drizzle-orm";
import { scopeOf, type Actor } from "../../access/actor.ts";
import { canViewSuretyContacts, canViewSuretyLimits, suretyCan } from "../../access/policies/surety.ts";
import { recordEvent } from "../../audit/audit-writer.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { permits, sureties } from "../../db/schema.ts";
import { conflict, notFound, validation } from "../../errors.ts";
import { fromCents, toCents } from "../../../shared/domain/bonds.ts";
import {
  type Surety,
  SURETY_IN_USE_MESSAGE,
  SURETY_NAME_TAKEN_MESSAGE,
  type SuretyInput,
} from "../../../shared/schemas/sureties.ts";

export type SuretyRow = typeof sureties.$inferSelect;

const key = (name: string) => name.trim().toLowerCase();

/** A surety of the actor's company (any company for a super-admin), or 404. */
export async function findVisibleSurety(db: Db, actor: Actor, id: string): Promise<SuretyRow> {
  const { companyId } = scopeOf(actor);
  const [row] = await db
    .select()
    .from(sureties)
    .where(and(eq(sureties.id, id), companyId ? eq(sureties.companyId, companyId) : undefined));
  if (!row) throw notFound("Surety");
  return row;
}

interface ListedSurety {
  id: string;
  company_id: string;
  name: string;
  contact_name: string | null;
  phone: string | null;
  email: string | null;
  single_limit: string | null;
  aggregate_limit: string | null;
  bond_count: number;
  open_exposure: string;
}

/**
 * GET /api/sureties in one statement: the sureties with their bond count and open exposure. What
 * the actor sees of each is cut down afterwards: contacts for staff, limits and exposure for
 * admins; a client-user gets the sureties of its clients' bonds only, by name.
 */
export async function listSureties(db: Db, actor: Actor, companyId: string | null): Promise<Surety[]> {
  const scope = scopeOf(actor);
  const company = scope.companyId ?? companyId;
  const clientIds = scope.clientIds;
  const rows = await queryRows<ListedSurety>(
    db,
    sql`select s.id, s.company_id, s.name, s.contact_name, s.phone, s.email,
               s.single_limit::text as single_limit, s.aggregate_limit::text as aggregate_limit,
               count(p.id)::int as bond_count,
               coalesce(sum(p.current_amount) filter (where p.bond_status in ('active','reduced')), 0.00)::text
                 as open_exposure
        from sureties s
        left join permits p on p.surety_id = s.id
        where ${company ? sql`s.company_id = ${company}` : sql`true`}
          ${
            clientIds
              ? sql`and exists (select 1 from permits v where v.surety_id = s.id and v.client_id = any(${toUuidArray(clientIds)}))`
              : sql``
          }
        group by s.id
        order by lower(s.name), s.id`,
  );
  return rows.map((r) => presentSurety(actor, r));
}

/** A text[] parameter cast to uuid[] (drizzle passes arrays as lists of parameters otherwise). */
const toUuidArray = (ids: string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;

function presentSurety(actor: Actor, r: ListedSurety): Surety {
  const contacts = canViewSuretyContacts(actor);
  const limits = canViewSuretyLimits(actor);
  return {
    id: r.id,
    company_id: r.company_id,
    name: r.name,
    contact_name: contacts ? r.contact_name : null,
    phone: contacts ? r.phone : null,
    email: contacts ? r.email : null,
    single_limit: limits ? r.single_limit : null,
    aggregate_limit: limits ? r.aggregate_limit : null,
    bond_count: contacts ? r.bond_count : null,
    open_exposure: limits ? r.open_exposure : null,
    can: suretyCan(actor, { companyId: r.company_id }),
  };
}

/** One surety as the list shows it (the answer of POST and PUT). */
export async function presentOneSurety(db: Db, actor: Actor, id: string): Promise<Surety> {
  const row = await findVisibleSurety(db, actor, id);
  const [listed] = (await listSureties(db, actor, row.companyId)).filter((s) => s.id === id);
  return listed!;
}

const columnsOf = (input: SuretyInput) => ({
  name: input.name,
  contactName: input.contact_name,
  phone: input.phone,
  email: input.email?.toLowerCase() ?? null,
  singleLimit: money(input.single_limit),
  aggregateLimit: money(input.aggregate_limit),
});

/** "1500" as the numeric(14,2) column gives it back ("1500.00"). */
const money = (v: string | null) => (v === null ? null : fromCents(toCents(v)));

function nameTaken(err: unknown): never {
  if (uniqueViolation(err) === "sureties_company_name_uq")
    throw conflict(SURETY_NAME_TAKEN_MESSAGE, { name: SURETY_NAME_TAKEN_MESSAGE });
  throw err;
}

/** 'Add Surety' (Surety Admin). */
export async function createSurety(db: Db, actor: Actor, companyId: string, input: SuretyInput) {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(sureties)
        .values({ companyId, ...columnsOf(input) })
        .returning();
      await recordEvent(tx, actor, {
        action: "surety.create",
        entityType: "surety",
        entityId: row!.id,
        companyId,
        details: { name: row!.name },
      });
      return row!;
    });
  } catch (err) {
    nameTaken(err);
  }
}

/**
 * Saves a surety's fields. A new name is copied onto its bonds' surety_company (the name the
 * exports and the audit of older bonds read) in the same transaction.
 */
export async function updateSurety(db: Db, actor: Actor, current: SuretyRow, input: SuretyInput) {
  const values = columnsOf(input);
  const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
    (k) => (values[k] ?? null) !== (current[k] ?? null),
  );
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.update(sureties).set(values).where(eq(sureties.id, current.id)).returning();
      if (values.name !== current.name) {
        await tx.update(permits).set({ suretyCompany: values.name }).where(eq(permits.suretyId, current.id));
      }
      if (changed.length) {
        await recordEvent(tx, actor, {
          action: "surety.update",
          entityType: "surety",
          entityId: current.id,
          companyId: current.companyId,
          details: { fields: changed },
        });
      }
      return row!;
    });
  } catch (err) {
    nameTaken(err);
  }
}

/** Deletes a surety no bond names; one that is in use answers 409 with how many bonds name it. */
export async function deleteSurety(db: Db, actor: Actor, surety: SuretyRow) {
  await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(sureties).where(eq(sureties.id, surety.id)).for("update");
    if (!locked) throw notFound("Surety");
    const [used] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(permits)
      .where(eq(permits.suretyId, surety.id));
    if (used && used.n > 0) throw conflict(SURETY_IN_USE_MESSAGE(used.n));
    await tx.delete(sureties).where(eq(sureties.id, surety.id));
    await recordEvent(tx, actor, {
      action: "surety.delete",
      entityType: "surety",
      entityId: surety.id,
      companyId: surety.companyId,
      details: { name: surety.name },
    });
  });
}

/**
 * The company's sureties by name, creating the missing ones (the bond form's free text, imports):
 * matched case-insensitively on the trimmed name, as clients are. One read, one insert, one read of
 * any a concurrent writer created meanwhile. Keys of the answer are the lower-cased names.
 */
export async function findOrCreateSuretiesByName(
  tx: Db,
  actor: Actor,
  companyId: string,
  names: string[],
): Promise<{ sureties: Map<string, { id: string; name: string }>; created: string[] }> {
  // Of several spellings of one name, the first one given names a new surety.
  const wanted = new Map<string, string>();
  for (const n of names) if (n.trim() && !wanted.has(key(n))) wanted.set(key(n), n.trim());
  const found = new Map<string, { id: string; name: string }>();
  const read = async (keys: string[]) => {
    if (!keys.length) return;
    const rows = await tx
      .select({ id: sureties.id, name: sureties.name })
      .from(sureties)
      .where(and(eq(sureties.companyId, companyId), inArray(sql`lower(${sureties.name})`, keys)));
    for (const r of rows) found.set(key(r.name), r);
  };
  await read([...wanted.keys()]);
  const missing = [...wanted].filter(([k]) => !found.has(k));
  const created: string[] = [];
  if (missing.length) {
    const inserted = await tx
      .insert(sureties)
      .values(missing.map(([, name]) => ({ companyId, name })))
      .onConflictDoNothing()
      .returning({ id: sureties.id, name: sureties.name });
    for (const s of inserted) {
      found.set(key(s.name), s);
      created.push(s.name);
    }
    if (inserted.length) {
      await recordEvent(tx, actor, {
        action: "surety.create",
        entityType: "surety",
        entityId: inserted.length === 1 ? inserted[0]!.id : null,
        companyId,
        details: { names: inserted.map((s) => s.name) },
      });
    }
    await read(missing.map(([k]) => k).filter((k) => !found.has(k)));
  }
  return { sureties: found, created };
}

export const SURETY_NOT_FOUND = "Surety not found in this company.";

/**
 * A bond's surety from the form: `surety_id` (one of the company's), else the typed name (found or
 * created). Null when neither is given.
 */
export async function resolveSurety(
  tx: Db,
  actor: Actor,
  companyId: string,
  input: { surety_id: string | null; surety_company: string | null },
): Promise<{ id: string; name: string } | null> {
  if (input.surety_id) {
    const [row] = await tx
      .select({ id: sureties.id, name: sureties.name })
      .from(sureties)
      .where(and(eq(sureties.id, input.surety_id), eq(sureties.companyId, companyId)));
    if (!row) throw validation({ surety_id: SURETY_NOT_FOUND }, SURETY_NOT_FOUND);
    return row;
  }
  if (!input.surety_company) return null;
  const { sureties: found } = await findOrCreateSuretiesByName(tx, actor, companyId, [input.surety_company]);
  return found.get(key(input.surety_company)) ?? null;
}
