import { z } from "zod";
import { BOND_LIMITS } from "../domain/bond-fields.ts";
import { COLLATERAL_FORMS, type CollateralForm } from "../domain/bonds.ts";
import { optionalText, requiredDate, requiredMoney, uuid } from "./fields.ts";

// A bond's collateral (issue 12): 'Add Collateral', 'Release Collateral' and the rows the bond's
// ledger shows. Client-users never see collateral.

/** POST /api/bonds/:id/collateral ('Add Collateral'). */
export const CollateralInputSchema = z.object({
  form: z.enum(COLLATERAL_FORMS, { message: "Form must be Letter of Credit, Cash or Other" }),
  amount: requiredMoney("Amount", { positive: true }),
  held_since: requiredDate("Held Since"),
  note: optionalText("Note", BOND_LIMITS.note),
});
export type CollateralInput = z.output<typeof CollateralInputSchema>;
export type CollateralFormValues = z.input<typeof CollateralInputSchema>;

/** PATCH /api/bonds/:id/collateral/:cid ('Release Collateral'): on or after the bond's release. */
export const CollateralReleaseInputSchema = z.object({
  released_on: requiredDate("Released On"),
});
export type CollateralReleaseInput = z.output<typeof CollateralReleaseInputSchema>;

export const CollateralParamsSchema = z.object({ id: uuid(), cid: uuid() });

/** One collateral item as GET /api/bonds/:id/ledger lists it. */
export const CollateralSchema = z.object({
  id: z.uuid(),
  form: z.enum(COLLATERAL_FORMS) as z.ZodType<CollateralForm>,
  amount: z.string(),
  held_since: z.string(),
  released_on: z.string().nullable(),
  note: z.string().nullable(),
  by: z.object({ name: z.string() }),
  created_at: z.string(),
  /** Whether 'Release' is offered (role; the bond released or cancelled; not yet released). */
  can_release: z.boolean(),
});
export type Collateral = z.infer<typeof CollateralSchema>;
