import { z } from "zod";
import { BOND_LIMITS } from "../domain/bond-fields.ts";
import { money, optionalId, optionalText, requiredText } from "./fields.ts";

// Sureties (issue 12): the Surety Admin page; admins only write. Amounts travel as strings with two
// decimals ("25000.00"); requests may send numbers or strings with thousands separators.

export const SuretyListQuerySchema = z.object({
  /** A super-admin names the company; everyone else sees their own. */
  company_id: optionalId(),
});

/** POST /api/sureties and PUT /api/sureties/:id (the Surety Admin form). */
export const SuretyInputSchema = z
  .object({
    /** Super-admin only (required for them on create; ignored on update: a surety stays in its company). */
    company_id: optionalId(),
    name: requiredText("Name", BOND_LIMITS.suretyName),
    contact_name: optionalText("Contact", BOND_LIMITS.contactName),
    phone: optionalText("Phone", BOND_LIMITS.phone),
    email: optionalText("E-mail", BOND_LIMITS.email).refine(
      (v) => v === null || z.email().safeParse(v).success,
      {
        message: "Enter a valid email address",
      },
    ),
    single_limit: money("Single Limit"),
    aggregate_limit: money("Aggregate Limit"),
  })
  .superRefine(
    (v, ctx) => {
      if (
        typeof v.single_limit === "string" &&
        typeof v.aggregate_limit === "string" &&
        Number(v.single_limit) > Number(v.aggregate_limit)
      ) {
        ctx.addIssue({
          code: "custom",
          path: ["single_limit"],
          message: "Single Limit cannot be more than the Aggregate Limit",
        });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  );
export type SuretyInput = z.output<typeof SuretyInputSchema>;
export type SuretyFormValues = z.input<typeof SuretyInputSchema>;

export const SuretyCanSchema = z.object({ edit: z.boolean(), delete: z.boolean() });

/**
 * A surety as GET /api/sureties lists it. Staff see names and contacts; the limits and the
 * exposure only reach admins (null for everyone else). Client-users get only the sureties of their
 * clients' bonds, names only.
 */
export const SuretySchema = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  name: z.string(),
  contact_name: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  single_limit: z.string().nullable(),
  aggregate_limit: z.string().nullable(),
  /** Bonds naming this surety (any status): a surety in use cannot be deleted. Null for client-users. */
  bond_count: z.number().int().nonnegative().nullable(),
  /** Current amount of its Active and Reduced bonds. Null unless the actor sees limits. */
  open_exposure: z.string().nullable(),
  can: SuretyCanSchema,
});
export type Surety = z.infer<typeof SuretySchema>;

/** GET /api/sureties: the company's sureties by name; `can.create` shows 'Add Surety'. */
export const SuretyListSchema = z.object({
  sureties: z.array(SuretySchema),
  can: z.object({ create: z.boolean(), view_limits: z.boolean() }),
});
export type SuretyList = z.infer<typeof SuretyListSchema>;

/** POST/PUT answer. */
export const SuretyResponseSchema = z.object({ surety: SuretySchema });

/** The message of DELETE /api/sureties/:id on a surety some bond names (409). */
export const SURETY_IN_USE_MESSAGE = (count: number) =>
  `This surety is named on ${count} bond${count === 1 ? "" : "s"}; choose another surety on them before deleting it.`;
export const SURETY_NAME_TAKEN_MESSAGE = "A surety with this name already exists";
