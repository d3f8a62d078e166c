import type { BySurety } from "../../../../shared/schemas/bonds.ts";

/**
 * A row of Exposure by Surety by name, with whose it is when the view spans companies ("Liberty
 * Mutual — Summit Ridge"): each company has its own sureties (issue 25).
 */
export const suretyLabel = (r: Pick<BySurety, "name" | "company">) =>
  r.company ? `${r.name} — ${r.company.name}` : r.name;

/** A row's key: the "No surety" rows of two companies (a super-admin's view) are two rows. */
export const suretyKey = (r: Pick<BySurety, "surety_id" | "currency" | "company">) =>
  `${r.surety_id ?? "none"}:${r.currency}:${r.company?.id ?? ""}`;
