import { actorCan, type Actor } from "../actor.ts";
import { withinScope } from "./scope.ts";

/** What the company rules need of a company. */
export interface CompanyRecord {
  id: string;
}

const scopeOfCompany = (c: CompanyRecord) => ({ companyId: c.id });

/** The companies admin: a super-admin lists all, a company-admin its own (spec section 6). */
export const canListCompanies = (actor: Actor) => actorCan(actor, "companies.list");

export const canViewCompany = (actor: Actor, company: CompanyRecord) =>
  actorCan(actor, "companies.list") && withinScope(actor, scopeOfCompany(company));

export const canCreateCompany = (actor: Actor) => actorCan(actor, "companies.manage");

/** Editing covers the company's fields and its logo. */
export const canEditCompany = (actor: Actor, company: CompanyRecord) =>
  actorCan(actor, "companies.manage") && withinScope(actor, scopeOfCompany(company));

export const canDeleteCompany = (actor: Actor, company: CompanyRecord) =>
  actorCan(actor, "companies.manage") && withinScope(actor, scopeOfCompany(company));

/** The logo shows in the header of every signed-in user of the company. */
export const canViewCompanyLogo = (actor: Actor, company: CompanyRecord) =>
  withinScope(actor, scopeOfCompany(company));

/** The `can` flags of a company. */
export function companyCan(actor: Actor, company: CompanyRecord) {
  return { edit: canEditCompany(actor, company), delete: canDeleteCompany(actor, company) };
}

/** The `can` flags of the companies list. */
export const companyListCan = (actor: Actor) => ({ create: canCreateCompany(actor) });
