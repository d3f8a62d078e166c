import { sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import {
  bondLedgerCan,
  canManageCollateral,
  canViewCollateral,
  canWriteLedger,
} from "../../access/policies/bond.ts";
import { queryRows, type Db } from "../../db/client.ts";
import {
  isClosedBondStatus,
  isReversible,
  sumMoney,
  type BondStatus,
  type CollateralForm,
  type LedgerEntryLike,
  type LedgerKind,
} from "../../../shared/domain/bonds.ts";
import type { GuaranteeType } from "../../../shared/domain/statuses.ts";
import type { Collateral } from "../../../shared/schemas/bond-collateral.ts";
import type { BondLedger, LedgerEntry, LinkedBond } from "../../../shared/schemas/bond-ledger.ts";
import type { PermitRow } from "../permits/index.ts";
import { scopeSql } from "./bond-access.ts";

// Reading: GET /api/bonds/:id/ledger (and the answer of every write on a bond).

interface EntryRow {
  id: string;
  seq: number;
  kind: LedgerKind;
  effective_date: string;
  obligee_acceptance_date: string | null;
  percent: string | null;
  change: string;
  amount_after: string;
  reason: string | null;
  document: { id: string; name: string } | null;
  by: string;
  created_at: string;
  reverses_id: string | null;
  reversed_by_id: string | null;
}

interface CollateralRow {
  id: string;
  form: CollateralForm;
  amount: string;
  held_since: string;
  released_on: string | null;
  note: string | null;
  by: string;
  created_at: string;
}

interface LedgerRead {
  entries: EntryRow[] | null;
  collateral: CollateralRow[] | null;
  currency: string;
  surety: { id: string; name: string } | null;
  maintenance_bond: LinkedBond | null;
  performance_bond: LinkedBond | null;
  /** Whether a maintenance bond follows this one, seen by the actor or not. */
  has_maintenance: boolean;
}

const linkedBond = (alias: string) =>
  sql.raw(`json_build_object('id', ${alias}.id, 'permit_number', ${alias}.permit_number,
    'permit_name', ${alias}.permit_name, 'bond_number', ${alias}.bond_number, 'status', ${alias}.bond_status,
    'current_amount', ${alias}.current_amount::text)`);

/**
 * A bond's ledger in one statement: the entries in order (with their document, who wrote them and
 * the reversal of each), the collateral, the company's currency, the surety and the linked bonds
 * (those the actor may see). Collateral is not even read for a client-user.
 */
export async function loadLedger(db: Db, actor: Actor, bond: PermitRow): Promise<BondLedger> {
  const withCollateral = canViewCollateral(actor);
  const [row] = await queryRows<LedgerRead>(
    db,
    sql`select
          (select json_agg(json_build_object(
              'id', e.id, 'seq', e.seq, 'kind', e.kind, 'effective_date', e.effective_date,
              'obligee_acceptance_date', e.obligee_acceptance_date, 'percent', e.percent::text,
              'change', e.change::text, 'amount_after', e.amount_after::text, 'reason', e.reason,
              'document', case when a.id is null then null else json_build_object('id', a.id, 'name', a.filename) end,
              'by', e.created_by_name, 'created_at', e.created_at, 'reverses_id', e.reverses_id,
              'reversed_by_id', r.id) order by e.seq)
           from bond_ledger_entries e
           left join attachments a on a.id = e.document_id
           left join bond_ledger_entries r on r.reverses_id = e.id
           where e.permit_id = ${bond.id}) as entries,
          ${
            withCollateral
              ? sql`(select json_agg(json_build_object(
                  'id', c.id, 'form', c.form, 'amount', c.amount::text, 'held_since', c.held_since,
                  'released_on', c.released_on, 'note', c.note, 'by', c.created_by_name,
                  'created_at', c.created_at) order by c.held_since, c.created_at)
                 from bond_collateral c where c.permit_id = ${bond.id})`
              : sql`null`
          } as collateral,
          (select c.currency from companies c where c.id = ${bond.companyId}) as currency,
          (select json_build_object('id', s.id, 'name', s.name) from sureties s where s.id = ${bond.suretyId}) as surety,
          (select ${linkedBond("m")} from permits m
            where m.maintenance_of_id = ${bond.id} and ${scopeSql(actor, "m")}) as maintenance_bond,
          (select ${linkedBond("f")} from permits f
            where f.id = ${bond.maintenanceOfId} and ${scopeSql(actor, "f")}) as performance_bond,
          exists (select 1 from permits m where m.maintenance_of_id = ${bond.id}) as has_maintenance`,
  );
  return presentLedger(actor, bond, row!);
}

const iso = (v: string) => new Date(v).toISOString();
const likeOf = (e: EntryRow): LedgerEntryLike => ({
  id: e.id,
  kind: e.kind,
  change: e.change,
  reverses_id: e.reverses_id,
});

function presentLedger(actor: Actor, bond: PermitRow, r: LedgerRead): BondLedger {
  const rows = r.entries ?? [];
  const like = rows.map(likeOf);
  const status = (bond.bondStatus as BondStatus | null) ?? null;
  const write = canWriteLedger(actor, bond);
  const manage = canManageCollateral(actor, bond);
  const entries: LedgerEntry[] = rows.map((e) => ({
    id: e.id,
    seq: Number(e.seq),
    kind: e.kind,
    effective_date: e.effective_date,
    obligee_acceptance_date: e.obligee_acceptance_date,
    percent: e.percent,
    change: e.change,
    amount_after: e.amount_after,
    reason: e.reason,
    document: e.document,
    by: { name: e.by },
    created_at: iso(e.created_at),
    reverses_id: e.reverses_id,
    reversed_by_id: e.reversed_by_id,
    can_reverse: write && isReversible(like, likeOf(e)),
  }));
  const collateral: Collateral[] | null = !canViewCollateral(actor)
    ? null
    : (r.collateral ?? []).map((c) => ({
        id: c.id,
        form: c.form,
        amount: c.amount,
        held_since: c.held_since,
        released_on: c.released_on,
        note: c.note,
        by: { name: c.by },
        created_at: iso(c.created_at),
        can_release: manage && !c.released_on && isClosedBondStatus(status),
      }));
  return {
    id: bond.id,
    guarantee_type: (bond.guaranteeType as GuaranteeType | null) ?? null,
    bond_number: bond.bondNumber,
    surety: r.surety,
    status,
    original_amount: bond.bondAmount,
    current_amount: bond.currentAmount,
    currency: r.currency,
    entries,
    collateral,
    collateral_held: collateral
      ? sumMoney(collateral.filter((c) => !c.released_on).map((c) => c.amount))
      : null,
    maintenance_bond: r.maintenance_bond,
    performance_bond: r.performance_bond,
    can: bondLedgerCan(actor, bond, {
      status,
      guaranteeType: bond.guaranteeType,
      entries: like,
      hasMaintenanceBond: r.has_maintenance,
    }),
  };
}
