import { sql, type SQL } from "drizzle-orm";
import { scopeOf, type Actor } from "../../access/actor.ts";
import { canSeeGettingStarted } from "../../access/policies/permit.ts";
import type { ScopeContents } from "../../../shared/schemas/scope-contents.ts";

/** The row scopeContentsSql() makes: one JSON object of yes-or-no answers. */
export interface ScopeContentsRow {
  permits: boolean;
  bonds: boolean;
  company: boolean;
  client: boolean;
  project: boolean;
}

/**
 * What exists within the actor's scope, whatever a list's filters (issue 25), as one SQL
 * expression (a JSON object of `exists` answers, each stopping at the first row an index finds), so
 * the permit summary and the Bonds page read it within a statement they already send. Permits in
 * scope: the company's (a super-admin: all), a client-user's only its clients'. The companies,
 * clients and projects are asked only for staff (the getting-started steps).
 */
export function scopeContentsSql(actor: Actor): SQL {
  const scope = scopeOf(actor);
  const inCompany = (alias: string) =>
    scope.companyId ? sql`${sql.raw(alias)}.company_id = ${scope.companyId}` : sql`true`;
  const permitScope = scope.clientIds
    ? scope.clientIds.length
      ? sql`${inCompany("sp")} and sp.client_id = any(${`{${scope.clientIds.join(",")}}`}::uuid[])`
      : sql`false`
    : inCompany("sp");
  const staff = canSeeGettingStarted(actor);
  const company = !staff ? sql`false` : scope.companyId ? sql`true` : sql`exists(select 1 from companies sc)`;
  const client = staff ? sql`exists(select 1 from clients sc where ${inCompany("sc")})` : sql`false`;
  const project = staff ? sql`exists(select 1 from projects sc where ${inCompany("sc")})` : sql`false`;
  return sql`json_build_object(
    'permits', exists(select 1 from permits sp where ${permitScope}),
    'bonds', exists(select 1 from permits sp where ${permitScope} and sp.record_type = 'bond'),
    'company', ${company}, 'client', ${client}, 'project', ${project})`;
}

/** The answer's `in_scope`: the steps for staff only (a client-user gets null). */
export function presentScopeContents(actor: Actor, row: ScopeContentsRow): ScopeContents {
  return {
    permits: row.permits,
    bonds: row.bonds,
    getting_started: canSeeGettingStarted(actor)
      ? { company: row.company, client_and_project: row.client && row.project, permits: row.permits }
      : null,
  };
}
