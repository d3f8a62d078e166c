import { sql, type SQL } from "drizzle-orm";
import { alias, type AnyPgTable, type PgColumn } from "drizzle-orm/pg-core";
import { scopeOf, type Actor } from "../../access/actor.ts";
import { clients, companies, permitAudit, permits, projects, users } from "../../db/schema.ts";
import { type AUDIT_REFERENCE_FIELDS } from "../../../shared/domain/audit-text.ts";
import { userNameSql } from "../permits/index.ts";

// Names for the ids an audit entry holds (issue 25; decision 0023): the Responsible Person, the
// project, client and company a permit moved from and to. Read in the statement that reads the
// trail, one scalar subquery by primary key per id, never a query per row.

const u = alias(users, "ref_user");
const p = alias(projects, "ref_project");
const c = alias(clients, "ref_client");
const co = alias(companies, "ref_company");
/** An alias in a FROM of a subquery written as SQL (the alias alone renders as its name). */
const from = (table: AnyPgTable, name: string) => sql`${table} ${sql.identifier(name)}`;

const UUID = sql.raw(`'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'`);

/**
 * The name of the record `value` (an entry's old or new value) points at, when the entry's field is
 * a reference (AUDIT_REFERENCE_FIELDS); null otherwise, and null when the record is gone or is not
 * the actor's to see: someone in one company is not told the name of another company's user,
 * project or client (a permit a super-admin moved), nor a client-user that of another client's
 * project. The scope's kind is part of the statement's shape (builtOnceForViewer), so the
 * conditions below may depend on it; the client list is the scope's own placeholder.
 */
function referenceName(actor: Actor, value: PgColumn): SQL<string | null> {
  const scope = scopeOf(actor);
  const id = sql`${value}::uuid`;
  // Within the permit's company, unless the actor sees every company.
  const ofCompany = (column: PgColumn) =>
    scope.companyId === null ? sql`` : sql` and ${column} = ${permits.companyId}`;
  const ofClients = (column: PgColumn) =>
    scope.clientIds === null
      ? sql``
      : sql` and ${column} = any(${sql.placeholder("scopeClientIds")}::uuid[])`;
  const names: Record<keyof typeof AUDIT_REFERENCE_FIELDS, SQL> = {
    responsible_user_id: sql`(select ${userNameSql(u)} from ${from(users, "ref_user")} where ${u.id} = ${id}${ofCompany(u.companyId)})`,
    project_id: sql`(select ${p.name} from ${from(projects, "ref_project")} where ${p.id} = ${id}${ofCompany(p.companyId)}${ofClients(p.clientId)})`,
    client_id: sql`(select ${c.name} from ${from(clients, "ref_client")} where ${c.id} = ${id}${ofCompany(c.companyId)}${ofClients(c.id)})`,
    company_id: sql`(select ${co.name} from ${from(companies, "ref_company")} where ${co.id} = ${id}${ofCompany(co.id)})`,
  };
  const whens = Object.entries(names).map(
    ([field, name]) => sql` when ${sql.raw(`'${field}'`)} then ${name}`,
  );
  // The cast to uuid only where the field is a reference and the value has the form of an id.
  return sql<
    string | null
  >`case when ${value} ~ ${UUID} then case ${permitAudit.field}${sql.join(whens)} end end`;
}

/** The columns an audit trail's select adds: the names of its entries' old and new values. */
export const referenceNames = (actor: Actor) => ({
  oldName: referenceName(actor, permitAudit.oldValue),
  newName: referenceName(actor, permitAudit.newValue),
});

/** The permit's company's currency, in which its trail's amounts read. */
export const permitCurrency = sql<string>`(select ${co.currency} from ${from(companies, "ref_company")} where ${co.id} = ${permits.companyId})`;
