import { and, eq, inArray, sql } from "drizzle-orm";
import { choosesCompany, scopeConditions, scopeOf, type Actor } from "../../access/actor.ts";
import { clientCan } from "../../access/policies/client.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { clients, companies, permits, projects } from "../../db/schema.ts";
import { conflict, notFound, validation } from "../../errors.ts";
import type { Client } from "../../../shared/schemas/clients.ts";
import { recordEvent } from "../../audit/audit-writer.ts";

export type ClientRow = typeof clients.$inferSelect;

const projectCount = sql<number>`(select count(*)::int from ${projects} where ${projects.clientId} = ${clients.id})`;

const duplicateName = (name: string) => {
  const message = `A client named "${name}" already exists in this company.`;
  return conflict(message, { name: message });
};

function present(
  actor: Actor,
  row: {
    id: string;
    name: string;
    companyId: string;
    companyName: string | null;
    createdAt: Date;
    projectCount: number;
  },
): Client {
  return {
    id: row.id,
    name: row.name,
    companyId: row.companyId,
    companyName: row.companyName,
    createdAt: row.createdAt.toISOString(),
    projectCount: Number(row.projectCount),
    can: clientCan(actor, row),
  };
}

// A client-user's scope is a list of client ids: here, the clients' own.
const scopeColumns = { companyId: clients.companyId, clientId: clients.id };

function selectClients(db: Db) {
  return db
    .select({
      id: clients.id,
      name: clients.name,
      companyId: clients.companyId,
      companyName: companies.name,
      createdAt: clients.createdAt,
      projectCount,
    })
    .from(clients)
    .leftJoin(companies, eq(companies.id, clients.companyId));
}

/**
 * The clients the actor may see, by name (case-insensitively). `companyId` narrows a super-admin's
 * list; everyone else always gets their own company's, whatever they name.
 */
export async function listClients(db: Db, actor: Actor, companyId?: string): Promise<Client[]> {
  const rows = await selectClients(db)
    .where(
      and(
        scopeConditions(scopeOf(actor), scopeColumns),
        companyId && choosesCompany(actor) ? eq(clients.companyId, companyId) : undefined,
      ),
    )
    .orderBy(sql`lower(${clients.name})`, clients.id);
  return rows.map((r) => present(actor, r));
}

/** One client within the actor's company scope, or 404. */
export async function getClient(db: Db, actor: Actor, id: string): Promise<Client> {
  const [row] = await selectClients(db).where(
    and(eq(clients.id, id), scopeConditions(scopeOf(actor), scopeColumns)),
  );
  if (!row) throw notFound("Client");
  return present(actor, row);
}

/** A super-admin may name any company, but it has to exist. */
export async function assertCompanyExists(
  db: Db,
  companyId: string,
): Promise<{ id: string; timeZone: string }> {
  const [company] = await db
    .select({ id: companies.id, timeZone: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!company) throw validation({ company_id: "Company not found." });
  return company;
}

/** Creates a client; a name already used in the company (any case) answers 409 with a field message. */
export async function createClient(db: Db, actor: Actor, companyId: string, name: string): Promise<Client> {
  await assertCompanyExists(db, companyId);
  try {
    const id = await db.transaction(async (tx) => {
      const [row] = await tx.insert(clients).values({ companyId, name }).returning();
      await recordEvent(tx, actor, {
        action: "create",
        entityType: "client",
        entityId: row!.id,
        companyId,
        details: { name },
      });
      return row!.id;
    });
    return await getClient(db, actor, id);
  } catch (err) {
    if (uniqueViolation(err) !== null) throw duplicateName(name);
    throw err;
  }
}

/** Renames a client. Projects and permits refer to it by id, so they follow the new name. */
export async function renameClient(db: Db, actor: Actor, client: Client, name: string): Promise<Client> {
  try {
    await db.transaction(async (tx) => {
      await tx.update(clients).set({ name }).where(eq(clients.id, client.id));
      await recordEvent(tx, actor, {
        action: "update",
        entityType: "client",
        entityId: client.id,
        companyId: client.companyId,
        details: { field: "name", oldValue: client.name, newValue: name },
      });
    });
  } catch (err) {
    if (uniqueViolation(err) !== null) throw duplicateName(name);
    throw err;
  }
  return getClient(db, actor, client.id);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Deletes a client that nothing refers to. A client with projects (or with permits outside a
 * project) is refused with the counts: deleting it would silently unlink them, and client-users
 * would lose sight of their permits.
 */
export async function deleteClient(db: Db, actor: Actor, client: Client): Promise<void> {
  await db.transaction(async (tx) => {
    // Locking the row makes a project being created for this client wait, so the counts hold.
    await queryRows(tx, sql`select id from ${clients} where ${clients.id} = ${client.id} for update`);
    const [counts] = await queryRows<{ projects: number; permits: number }>(
      tx,
      sql`select
            (select count(*)::int from ${projects} where ${projects.clientId} = ${client.id}) as projects,
            (select count(*)::int from ${permits} where ${permits.clientId} = ${client.id} and ${permits.projectId} is null) as permits`,
    );
    const linked = [
      counts!.projects ? plural(counts!.projects, "project") : null,
      counts!.permits ? plural(counts!.permits, "permit") + " without a project" : null,
    ].filter(Boolean);
    if (linked.length) {
      throw conflict(
        `"${client.name}" cannot be deleted: it has ${linked.join(" and ")}. Move them to another client or delete them first.`,
      );
    }
    await tx.delete(clients).where(eq(clients.id, client.id));
    await recordEvent(tx, actor, {
      action: "delete",
      entityType: "client",
      entityId: client.id,
      companyId: client.companyId,
      details: { name: client.name },
    });
  });
}

/**
 * The company's client of that name (case-insensitively), created when there is none. Runs in the
 * caller's transaction (project create/update), so a failed project leaves no new client behind.
 */
export async function findOrCreateClientByName(
  tx: Db,
  actor: Actor,
  companyId: string,
  name: string,
): Promise<{ id: string; name: string }> {
  const { clients: found } = await findOrCreateClientsByName(tx, actor, companyId, [name]);
  return found.get(name.trim().toLowerCase())!;
}

/**
 * The same for many names at once (imports): one read, one insert of the missing ones, one read of
 * any a concurrent writer created meanwhile. Keys of the answer are the lower-cased names.
 */
export async function findOrCreateClientsByName(
  tx: Db,
  actor: Actor,
  companyId: string,
  names: string[],
): Promise<{ clients: Map<string, { id: string; name: string }>; created: string[] }> {
  const wanted = new Map(names.map((n) => [n.trim().toLowerCase(), n.trim()]));
  const found = new Map<string, { id: string; name: string }>();
  const read = async (keys: string[]) => {
    if (!keys.length) return;
    const rows = await tx
      .select({ id: clients.id, name: clients.name })
      .from(clients)
      .where(and(eq(clients.companyId, companyId), inArray(sql`lower(${clients.name})`, keys)));
    for (const r of rows) found.set(r.name.toLowerCase(), r);
  };
  await read([...wanted.keys()]);
  const missing = [...wanted].filter(([key]) => !found.has(key));
  const created: string[] = [];
  if (missing.length) {
    const inserted = await tx
      .insert(clients)
      .values(missing.map(([, name]) => ({ companyId, name })))
      .onConflictDoNothing()
      .returning({ id: clients.id, name: clients.name });
    for (const c of inserted) {
      found.set(c.name.toLowerCase(), c);
      created.push(c.name);
    }
    if (inserted.length) {
      await recordEvent(tx, actor, {
        action: "create",
        entityType: "client",
        entityId: inserted.length === 1 ? inserted[0]!.id : null,
        companyId,
        details: { names: inserted.map((c) => c.name) },
      });
    }
    // Names someone else created between our read and insert.
    await read(missing.map(([key]) => key).filter((key) => !found.has(key)));
  }
  return { clients: found, created };
}
