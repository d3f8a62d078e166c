import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { can, type Capability } from "../../shared/domain/permissions.ts";
import { hasClientFilter, type Role } from "../../shared/domain/roles.ts";
import { forbidden, validation } from "../errors.ts";

export const COMPANY_MISSING = "Company ID is missing. Please select a company.";

/**
 * Who is making a request (DESIGN.md section 3). Built once per request from the session, or from
 * an API key (issue 30): a key acts as its role in its company but is no user (`userId` null,
 * `apiKeyId` set, `name` "API key NAME", which the audit trail shows).
 */
export interface Actor {
  /** Null for an API key: it is no person (routes that need one use userIdOf()). */
  userId: string | null;
  sessionId: string;
  role: Role;
  /** Null only for a super-admin. */
  companyId: string | null;
  email: string;
  name: string;
  /** A client-user's visible clients; empty for everyone else. */
  clientIds: string[];
  mustResetPassword: boolean;
  /** Must use two-factor sign-in (role or company) but has not enrolled yet: only enrolment is open. */
  twoFactorSetupRequired: boolean;
  /** The super-admin behind an impersonation session, if any. */
  impersonatorId: string | null;
  impersonatorName: string | null;
  impersonatorEmail: string | null;
  /** The API key the request came with (issue 30); unset for a session. */
  apiKeyId?: string | null;
}

export const NOT_FOR_API_KEYS = "API keys cannot use this; sign in as a user.";

/** The user behind the actor, for what only a person has (a password, saved views, a feed): never a key's. */
export function userIdOf(actor: Actor): string {
  if (!actor.userId) throw forbidden(NOT_FOR_API_KEYS);
  return actor.userId;
}

/**
 * What a query may see. `companyId: null` means every company (super-admin only);
 * `clientIds` non-null restricts to those clients (client-user).
 */
export interface Scope {
  companyId: string | null;
  clientIds: string[] | null;
}

/** The actor's scope: every company with `allCompanies`, else its own; a client-user's client filter. */
export function scopeOf(actor: Actor): Scope {
  return {
    companyId: choosesCompany(actor) ? null : actor.companyId,
    clientIds: hasClientFilter(actor.role) ? actor.clientIds : null,
  };
}

/** The matrix of shared/domain/permissions.ts applied to the actor's role. */
export const actorCan = (actor: Actor, capability: Capability) => can(actor.role, capability);

/**
 * True for an actor who works across companies (super-admin): it sees them all, names the
 * company a write goes to, and may move a record to another company.
 */
export const choosesCompany = (actor: Actor) => actorCan(actor, "allCompanies");

/** SQL conditions restricting a tenant table to the scope; use in every tenant query. */
export function scopeConditions(
  scope: Scope,
  columns: { companyId: PgColumn; clientId?: PgColumn },
): SQL | undefined {
  const conds: SQL[] = [];
  if (scope.companyId) conds.push(eq(columns.companyId, scope.companyId));
  if (scope.clientIds) {
    if (!columns.clientId) throw new Error("client scope on a table without client_id");
    conds.push(scope.clientIds.length ? inArray(columns.clientId, scope.clientIds) : sql`false`);
  }
  return conds.length ? and(...conds) : undefined;
}

/**
 * scopeConditions() for a statement prepared once and run for many actors: the same conditions
 * with placeholders (`scopeCompanyId`, `scopeClientIds`) in place of the scope's values, so one
 * statement serves every scope of the same shape (`scopeShape`); `scopeParams` gives the values.
 */
export function scopePlaceholderConditions(
  scope: Scope,
  columns: { companyId: PgColumn; clientId: PgColumn },
): SQL | undefined {
  const conds: SQL[] = [];
  if (scope.companyId) conds.push(eq(columns.companyId, sql.placeholder("scopeCompanyId")));
  // An empty list matches nothing, as in scopeConditions().
  if (scope.clientIds) conds.push(sql`${columns.clientId} = any(${sql.placeholder("scopeClientIds")}::uuid[])`);
  return conds.length ? and(...conds) : undefined;
}

/** Which conditions scopePlaceholderConditions() makes for a scope: the key of its statement. */
export const scopeShape = (scope: Scope) => `${scope.companyId ? "company" : "all"}${scope.clientIds ? "+clients" : ""}`;

/** The placeholder values of scopePlaceholderConditions() for a scope. */
export const scopeParams = (scope: Scope) => ({
  scopeCompanyId: scope.companyId,
  scopeClientIds: scope.clientIds ?? [],
});

/** True when a record of `companyId` lies within the scope's company. */
export function inCompanyScope(scope: Scope, companyId: string | null | undefined): boolean {
  return scope.companyId === null || (!!companyId && companyId === scope.companyId);
}

/** The company a write goes to: a super-admin names it; everyone else writes to their own. */
export function targetCompanyId(actor: Actor, requested: string | null | undefined): string {
  if (choosesCompany(actor)) {
    if (!requested) throw validation({ company_id: COMPANY_MISSING }, COMPANY_MISSING);
    return requested;
  }
  return actor.companyId!;
}
