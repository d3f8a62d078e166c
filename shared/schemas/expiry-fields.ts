import { z } from "zod";
import { EXPIRY_DAYS_MAX, EXPIRY_RULES, LEAD_DAYS_MAX, type ExpiryRule } from "../domain/lifecycle.ts";

/**
 * The expiry defaults a permit and a permit template share (issue 11): 'Expiry Rule', its 'Days'
 * and 'Renewal Lead Time (days)'. Forms hold the numbers as input strings; the API takes numbers
 * or strings and answers numbers.
 */

export const EXPIRY_DAYS_REQUIRED = "Days is required";
export const EXPIRY_DAYS_MESSAGE = `Days must be a whole number from 1 to ${EXPIRY_DAYS_MAX}`;
export const LEAD_DAYS_MESSAGE = `Renewal Lead Time must be a whole number from 0 to ${LEAD_DAYS_MAX}`;

/** A whole number in [min, max], from a number or its text; blank and null are null. */
const wholeNumber = (min: number, max: number, message: string) =>
  z
    .union([z.string(), z.number(), z.null()])
    .optional()
    .transform((v, ctx) => {
      const s = v === null || v === undefined ? "" : String(v).trim();
      if (!s) return null;
      const n = Number(s);
      if (!/^\d+$/.test(s) || !Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return n;
    });

export const ExpiryFields = {
  expiry_rule: z.enum(EXPIRY_RULES, { message: "Expiry Rule must be a fixed date or days after inspection" }),
  /** Required under 'after_inspection' (checkExpiryDays); ignored (stored as null) under 'fixed'. */
  expiry_days: wholeNumber(1, EXPIRY_DAYS_MAX, EXPIRY_DAYS_MESSAGE),
  renewal_lead_days: wholeNumber(0, LEAD_DAYS_MAX, LEAD_DAYS_MESSAGE),
};

/** In a superRefine: the days are required when the rule counts days after an inspection. */
export function checkExpiryDays(
  v: { expiry_rule?: unknown; expiry_days?: unknown },
  ctx: z.RefinementCtx,
): void {
  const missing = v.expiry_days === null || v.expiry_days === undefined || v.expiry_days === "";
  if (v.expiry_rule === "after_inspection" && missing) {
    ctx.addIssue({ code: "custom", path: ["expiry_days"], message: EXPIRY_DAYS_REQUIRED });
  }
}

/** The days as stored: only the 'after_inspection' rule keeps them (a database check agrees). */
export const storedExpiryDays = (rule: ExpiryRule, days: number | null): number | null =>
  rule === "after_inspection" ? days : null;
