import {
  addableKinds,
  isReversible,
  isClosedBondStatus,
  type BondStatus,
  type LedgerEntryLike,
} from "../../../shared/domain/bonds.ts";
import type { BondLedgerCan } from "../../../shared/schemas/bond-ledger.ts";
import { actorCan, type Actor } from "../actor.ts";
import { withinScope } from "./scope.ts";

/** What the bond rules need of a bond (a permit row of record type bond). */
export interface BondRecord {
  companyId: string;
  clientId: string | null;
}

/**
 * The Bonds page, its export and the Bond Schedule: every role (spec section 6 as for permits); the
 * scoped queries hold a client-user to its clients' bonds.
 */
export const canListBonds = (actor: Actor) => actorCan(actor, "bonds.view");
export const canExportBonds = (actor: Actor) => actorCan(actor, "bonds.view");

/** A bond's ledger is read by whoever sees the bond (client-users too, without collateral). */
export const canViewBond = (actor: Actor, bond: BondRecord) =>
  actorCan(actor, "bonds.view") && withinScope(actor, bond);

/**
 * Ledger entries (riders, reductions, release, cancellation, claims, reversals) are written by the
 * roles that may edit permits. Whether the bond's state allows an entry is the service's 409.
 */
export const canWriteLedger = (actor: Actor, bond: BondRecord) =>
  actorCan(actor, "bonds.edit") && withinScope(actor, bond);

/** Collateral is staff only: a client-user never sees it (nor its sum). */
export const canViewCollateral = (actor: Actor) => actorCan(actor, "bonds.viewCollateral");

export const canManageCollateral = (actor: Actor, bond: BondRecord) =>
  canWriteLedger(actor, bond) && canViewCollateral(actor);

/** 'Start Maintenance Bond' creates a bond: for those who write the ledger and may create permits. */
export const canStartMaintenanceBond = (actor: Actor, bond: BondRecord) =>
  canWriteLedger(actor, bond) && actorCan(actor, "permits.create");

/**
 * The Bonds page's exposure against each surety's aggregate limit (issue 12, item 6): every staff
 * role, as collateral; never a client-user. (Surety Admin's limits themselves are for admins.)
 */
export const canSeeSuretyCapacity = (actor: Actor) => actorCan(actor, "bonds.viewCollateral");

/** What the ledger panel's flags need beyond the bond's tenant columns. */
export interface BondLedgerState {
  status: BondStatus | null;
  guaranteeType: string | null;
  entries: readonly LedgerEntryLike[];
  hasMaintenanceBond: boolean;
}

/** The `can` flags of GET /api/bonds/:id/ledger: the route's policy checks and the ledger's rules. */
export function bondLedgerCan(actor: Actor, bond: BondRecord, state: BondLedgerState): BondLedgerCan {
  const write = canWriteLedger(actor, bond);
  const kinds = write ? addableKinds(state.entries.length ? state.status : null) : [];
  return {
    rider: kinds.includes("rider"),
    reduction: kinds.includes("reduction"),
    release: kinds.includes("release"),
    cancellation: kinds.includes("cancellation"),
    claim: kinds.includes("claim"),
    reverse: write && state.entries.some((e) => isReversible(state.entries, e)),
    add_collateral: canManageCollateral(actor, bond) && !isClosedBondStatus(state.status),
    start_maintenance_bond:
      canStartMaintenanceBond(actor, bond) &&
      state.guaranteeType === "Performance" &&
      !state.hasMaintenanceBond &&
      state.status !== "cancelled",
  };
}
