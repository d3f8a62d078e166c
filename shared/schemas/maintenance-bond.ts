import { z } from "zod";
import { BOND_LIMITS } from "../domain/bond-fields.ts";
import { MAINTENANCE_TERM_MONTHS_MAX } from "../domain/bonds.ts";
import { optionalDate, optionalId, optionalText, requiredMoney } from "./fields.ts";

/**
 * POST /api/bonds/:id/maintenance-bond on a Performance bond ('Start Maintenance Bond', issue 12):
 * the Maintenance bond that follows it. Left empty, the surety, project, agency and names come
 * from the performance bond; the start date is today (company time zone); the expiration is start
 * + term months.
 */
export const MaintenanceBondInputSchema = z.object({
  amount: requiredMoney("Amount", { positive: true }),
  /** Whole months, 1 to 120 (the dialog offers 12 and 24); a number or a string of digits. */
  term_months: z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,3}$/)
          .transform(Number),
      ],
      {
        message: "Term must be a whole number of months",
      },
    )
    .pipe(
      z
        .number()
        .int({ message: "Term must be a whole number of months" })
        .min(1, { message: "Term must be at least 1 month" })
        .max(MAINTENANCE_TERM_MONTHS_MAX, {
          message: `Term must be at most ${MAINTENANCE_TERM_MONTHS_MAX} months`,
        }),
    ),
  start_date: optionalDate("Start Date"),
  bond_number: optionalText("Bond Number", BOND_LIMITS.bondNumber),
  /** The Permit Number of the new record; empty: the bond number, else the performance bond's + " M". */
  permit_number: optionalText("Permit Number", 100),
  /** Empty: "<performance bond's name> (Maintenance)". */
  permit_name: optionalText("Permit Name", 200),
  surety_id: optionalId(),
  agency: optionalText("Agency", 200),
});
export type MaintenanceBondInput = z.output<typeof MaintenanceBondInputSchema>;
export type MaintenanceBondFormValues = z.input<typeof MaintenanceBondInputSchema>;
