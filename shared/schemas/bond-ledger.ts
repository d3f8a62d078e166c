import { z } from "zod";
import { BOND_LIMITS } from "../domain/bond-fields.ts";
import {
  BOND_STATUSES,
  LEDGER_KINDS,
  PERCENT_PATTERN,
  type BondStatus,
  type LedgerKind,
} from "../domain/bonds.ts";
import { GUARANTEE_TYPES } from "../domain/statuses.ts";
import { CollateralSchema } from "./bond-collateral.ts";
import {
  money,
  optionalId,
  optionalText,
  rawAmount,
  requiredDate,
  requiredMoney,
  requiredText,
} from "./fields.ts";

// A bond's ledger (issue 12): POST /api/bonds/:id/ledger (one body per kind, told apart by `kind`)
// and GET /api/bonds/:id/ledger. Amounts travel as strings with two decimals ("25000.00");
// requests may send numbers or strings with thousands separators ("25,000").

const documentId = optionalId;
const reason = (required: boolean) =>
  required ? requiredText("Reason", BOND_LIMITS.reason) : optionalText("Reason", BOND_LIMITS.reason);

/** 'Rider': an increase or a decrease (signed), its effective date and why; a document may go with it. */
export const RiderInputSchema = z.object({
  kind: z.literal("rider"),
  change: requiredMoney("Change", { signed: true }),
  effective_date: requiredDate("Effective Date"),
  reason: reason(true),
  document_id: documentId(),
});

/**
 * 'Reduction': by an amount (how much comes off) or by a percent of the current amount (rounded
 * to the cent); exactly one of the two. The obligee's acceptance date is required.
 */
export const ReductionInputSchema = z
  .object({
    kind: z.literal("reduction"),
    amount: money("Amount", { positive: true }),
    percent: z
      .union([z.string(), z.number(), z.null()])
      .optional()
      .transform((v, ctx) => {
        const s = rawAmount(v).replace(/%$/, "").trim();
        if (!s) return null;
        if (!PERCENT_PATTERN.test(s) || Number(s) <= 0 || Number(s) >= 100) {
          ctx.addIssue({
            code: "custom",
            message: "Percent must be more than 0 and less than 100, with at most 2 decimals",
          });
          return z.NEVER;
        }
        return s;
      }),
    effective_date: requiredDate("Effective Date"),
    obligee_acceptance_date: requiredDate("Obligee Acceptance Date"),
    reason: reason(false),
    document_id: documentId(),
  })
  .superRefine(
    (v, ctx) => {
      const hasAmount = typeof v.amount === "string";
      const hasPercent = typeof v.percent === "string";
      if (hasAmount === hasPercent) {
        const message = hasAmount ? "Enter an amount or a percent, not both" : "Enter an amount or a percent";
        ctx.addIssue({ code: "custom", path: ["amount"], message });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  );

/** 'Release': the date (the release letter as the document); the amount goes to 0. */
export const ReleaseInputSchema = z.object({
  kind: z.literal("release"),
  effective_date: requiredDate("Release Date"),
  reason: reason(false),
  document_id: documentId(),
});

/** 'Cancellation': the date and why; the amount goes to 0. */
export const CancellationInputSchema = z.object({
  kind: z.literal("cancellation"),
  effective_date: requiredDate("Effective Date"),
  reason: reason(true),
  document_id: documentId(),
});

/** 'Claim': the date and what happened; the amount stays, the status becomes Claimed. */
export const ClaimInputSchema = z.object({
  kind: z.literal("claim"),
  effective_date: requiredDate("Claim Date"),
  reason: reason(true),
  document_id: documentId(),
});

/** 'Reverse': undoes one entry's change (not the original, not a reversal, once only). */
export const ReversalInputSchema = z.object({
  kind: z.literal("reversal"),
  reverses_id: z.uuid({ message: "Choose the entry to reverse" }),
  effective_date: requiredDate("Effective Date"),
  reason: reason(true),
});

export const LedgerEntryInputSchema = z.discriminatedUnion(
  "kind",
  [
    RiderInputSchema,
    ReductionInputSchema,
    ReleaseInputSchema,
    CancellationInputSchema,
    ClaimInputSchema,
    ReversalInputSchema,
  ],
  { error: "Event must be Rider, Reduction, Release, Cancellation, Claim or Reversal" },
);
export type LedgerEntryInput = z.output<typeof LedgerEntryInputSchema>;
export type LedgerEntryFormValues = z.input<typeof LedgerEntryInputSchema>;

/** Field names a VALIDATION answer of the ledger route may name. */
export const LEDGER_INPUT_FIELDS = [
  "kind",
  "change",
  "amount",
  "percent",
  "effective_date",
  "obligee_acceptance_date",
  "reason",
  "document_id",
  "reverses_id",
] as const;

// ---------------------------------------------------------------------------------------------
// Output: GET /api/bonds/:id/ledger (and the answer of every write on a bond)

const amountOut = z.string();
const named = z.object({ id: z.uuid(), name: z.string() });

export const LedgerEntrySchema = z.object({
  id: z.uuid(),
  /** Ledger order. */
  seq: z.number().int(),
  kind: z.enum(LEDGER_KINDS) as z.ZodType<LedgerKind>,
  effective_date: z.string(),
  /** Reductions only. */
  obligee_acceptance_date: z.string().nullable(),
  /** Reductions by percent only, as numeric(5,2) gives it ("50.00", "12.50"). */
  percent: z.string().nullable(),
  /** Signed ("-12500.00"); "0.00" for a claim. */
  change: amountOut,
  /** The running amount after this entry. */
  amount_after: amountOut,
  reason: z.string().nullable(),
  /** An attachment of the bond; null when none (or since deleted). */
  document: named.nullable(),
  by: z.object({ name: z.string() }),
  created_at: z.string(),
  /** On a reversal: the entry it undid. */
  reverses_id: z.uuid().nullable(),
  /** The reversal that undid this entry, if any. */
  reversed_by_id: z.uuid().nullable(),
  /** Whether 'Reverse' is offered on this row (role and the ledger's rules). */
  can_reverse: z.boolean(),
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

/** A linked bond (the maintenance bond of a performance bond, or the other way round). */
export const LinkedBondSchema = z.object({
  id: z.uuid(),
  permit_number: z.string(),
  permit_name: z.string(),
  bond_number: z.string().nullable(),
  status: (z.enum(BOND_STATUSES) as z.ZodType<BondStatus>).nullable(),
  current_amount: amountOut.nullable(),
});
export type LinkedBond = z.infer<typeof LinkedBondSchema>;

export const BondLedgerCanSchema = z.object({
  rider: z.boolean(),
  reduction: z.boolean(),
  release: z.boolean(),
  cancellation: z.boolean(),
  claim: z.boolean(),
  /** Some entry can be reversed (each row says which in can_reverse). */
  reverse: z.boolean(),
  add_collateral: z.boolean(),
  /** A Performance bond without a maintenance bond yet, not cancelled. */
  start_maintenance_bond: z.boolean(),
});
export type BondLedgerCan = z.infer<typeof BondLedgerCanSchema>;

/**
 * GET /api/bonds/:id/ledger: the bond's status and amounts, the 'Bond Ledger' entries in order,
 * its collateral (null for client-users), the linked maintenance/performance bond and what the
 * actor may do. POST .../ledger, .../collateral and PATCH .../collateral/:cid answer the same.
 */
export const BondLedgerSchema = z.object({
  id: z.uuid(),
  guarantee_type: z.enum(GUARANTEE_TYPES).nullable(),
  bond_number: z.string().nullable(),
  surety: named.nullable(),
  /** Null only for a bond without an amount yet (no ledger). */
  status: (z.enum(BOND_STATUSES) as z.ZodType<BondStatus>).nullable(),
  /** The bond_amount: the original (penal) amount. */
  original_amount: amountOut.nullable(),
  current_amount: amountOut.nullable(),
  /** ISO 4217 of the bond's company (the browser formats with its locale). */
  currency: z.string(),
  entries: z.array(LedgerEntrySchema),
  /** Null for client-users (they never see collateral). */
  collateral: z.array(CollateralSchema).nullable(),
  /** Sum of unreleased collateral; null for client-users. */
  collateral_held: amountOut.nullable(),
  /** The Maintenance bond that follows this Performance bond. */
  maintenance_bond: LinkedBondSchema.nullable(),
  /** The Performance bond this Maintenance bond follows. */
  performance_bond: LinkedBondSchema.nullable(),
  can: BondLedgerCanSchema,
});
export type BondLedger = z.infer<typeof BondLedgerSchema>;
