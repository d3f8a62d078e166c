import { and, eq, isNull } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { recordPermitAudit } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import { bondCollateral } from "../../db/schema.ts";
import { conflict, notFound, validation } from "../../errors.ts";
import {
  closingEntry,
  COLLATERAL_FORM_LABELS,
  COLLATERAL_MESSAGES,
  collateralReleaseError,
  isClosedBondStatus,
  type BondStatus,
  type CollateralForm,
} from "../../../shared/domain/bonds.ts";
import type { CollateralInput, CollateralReleaseInput } from "../../../shared/schemas/bond-collateral.ts";
import { findVisibleBond } from "./bond-access.ts";
import { ledgerOf } from "./ledger-entries.ts";

// A bond's collateral: POST /api/bonds/:id/collateral and PATCH /api/bonds/:id/collateral/:cid.
// Its audit values name the collateral's form, amount and dates.

const collateralText = (form: CollateralForm, amount: string, heldSince: string) =>
  `${COLLATERAL_FORM_LABELS[form]} ${amount} held since ${heldSince}`;

/** 'Add Collateral': on a bond that is not released or cancelled. */
export async function addCollateral(db: Db, actor: Actor, bondId: string, input: CollateralInput) {
  return db.transaction(async (tx) => {
    const bond = await findVisibleBond(tx, actor, bondId, { forUpdate: true });
    if (isClosedBondStatus(bond.bondStatus as BondStatus | null))
      throw conflict(COLLATERAL_MESSAGES.bondClosed);
    await tx.insert(bondCollateral).values({
      companyId: bond.companyId,
      permitId: bond.id,
      form: input.form,
      amount: input.amount,
      heldSince: input.held_since,
      note: input.note,
      createdBy: actor.userId,
      createdByName: actor.name,
    });
    await recordPermitAudit(tx, actor, bond, [
      {
        action: "collateral",
        field: "collateral",
        newValue: collateralText(input.form, input.amount, input.held_since),
      },
    ]);
  });
}

/**
 * 'Release Collateral': with or after the bond (decision 0014). The bond must be released or
 * cancelled, and the date on or after that entry's effective date and the collateral's Held Since.
 */
export async function releaseCollateral(
  db: Db,
  actor: Actor,
  bondId: string,
  collateralId: string,
  input: CollateralReleaseInput,
) {
  return db.transaction(async (tx) => {
    const bond = await findVisibleBond(tx, actor, bondId, { forUpdate: true });
    const [item] = await tx
      .select()
      .from(bondCollateral)
      .where(and(eq(bondCollateral.id, collateralId), eq(bondCollateral.permitId, bond.id)));
    if (!item) throw notFound("Collateral");
    const entries = await ledgerOf(tx, bond.id);
    const closing = closingEntry(entries);
    const refused = collateralReleaseError(
      { status: bond.bondStatus as BondStatus | null, closed_on: closing?.effectiveDate ?? null },
      { held_since: item.heldSince, released_on: item.releasedOn },
      input.released_on,
    );
    if (refused?.conflict) throw conflict(refused.message);
    if (refused) throw validation({ released_on: refused.message }, refused.message);
    await tx
      .update(bondCollateral)
      .set({ releasedOn: input.released_on })
      .where(and(eq(bondCollateral.id, item.id), isNull(bondCollateral.releasedOn)));
    await recordPermitAudit(tx, actor, bond, [
      {
        action: "collateral",
        field: "collateral_released",
        oldValue: collateralText(item.form as CollateralForm, item.amount, item.heldSince),
        newValue: input.released_on,
      },
    ]);
  });
}
