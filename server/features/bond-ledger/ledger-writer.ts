import { sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { permitAuditInsert, type PermitAuditEntry } from "../../audit/audit-writer.ts";
import { queryRows, type Db } from "../../db/client.ts";
import {
  addMoney,
  BOND_STATUS_LABELS,
  LEDGER_KIND_LABELS,
  type BondStatus,
  type LedgerKind,
} from "../../../shared/domain/bonds.ts";
import { emitWebhookEvents, type WebhookEventItem } from "../webhooks/index.ts";

/** One entry to append; change, amount and status come from the ledger arithmetic (shared/domain/bonds.ts). */
export interface NewLedgerEntry {
  permit: { id: string; companyId: string };
  kind: LedgerKind;
  /** Signed. */
  change: string;
  amountAfter: string;
  /** The bond's status after this entry. */
  status: BondStatus;
  /** The status before it (for the audit), null for an original entry. */
  statusBefore: BondStatus | null;
  effectiveDate: string;
  obligeeAcceptanceDate?: string | null;
  percent?: string | null;
  reason?: string | null;
  documentId?: string | null;
  reversesId?: string | null;
}

const signed = (v: string) => (v.startsWith("-") ? v : `+${v}`);

/** The entry as the permit's audit trail shows it. */
function auditOf(e: NewLedgerEntry): PermitAuditEntry[] {
  const what = `${LEDGER_KIND_LABELS[e.kind]} effective ${e.effectiveDate}: ${signed(e.change)}${
    e.percent ? ` (${e.percent} %)` : ""
  }${e.reason ? `; ${e.reason}` : ""}`;
  const entries: PermitAuditEntry[] = [
    { action: "ledger", field: "bond_ledger", newValue: what },
    {
      action: "ledger",
      field: "current_amount",
      oldValue: e.kind === "original" ? null : addMoney(e.amountAfter, e.change, -1),
      newValue: e.amountAfter,
    },
  ];
  if (e.status !== e.statusBefore) {
    entries.push({
      action: "ledger",
      field: "bond_status",
      oldValue: e.statusBefore ? BOND_STATUS_LABELS[e.statusBefore] : null,
      newValue: BOND_STATUS_LABELS[e.status],
    });
  }
  return entries;
}

/**
 * The one writer of bond ledger entries (the bond form's original amount, imports, and every entry
 * of the ledger routes). In the caller's transaction, which holds the bonds' rows locked: appends
 * the entries in the order given (their seq follows it), sets each bond's current_amount and
 * bond_status to its last entry's, and writes the permit audit. One statement whatever the count.
 */
export async function appendLedgerEntries(
  tx: Db,
  actor: Actor,
  entries: NewLedgerEntry[],
): Promise<{ id: string; permitId: string }[]> {
  if (!entries.length) return [];
  const rows = entries.map((e, i) => ({
    ord: i,
    company_id: e.permit.companyId,
    permit_id: e.permit.id,
    kind: e.kind,
    change: e.change,
    amount_after: e.amountAfter,
    status: e.status,
    effective_date: e.effectiveDate,
    obligee_acceptance_date: e.obligeeAcceptanceDate ?? null,
    percent: e.percent ?? null,
    reason: e.reason ?? null,
    document_id: e.documentId ?? null,
    reverses_id: e.reversesId ?? null,
  }));
  const json = JSON.stringify(rows);
  const audit =
    permitAuditInsert(
      actor,
      entries.map((e) => ({ permit: e.permit, entries: auditOf(e) })),
    ) ?? sql`select 1`;
  // One statement: the entries, the bonds' amounts and statuses, and their audit (data-modifying WITHs).
  const inserted = await queryRows<LedgerRow>(
    tx,
    sql`with ins as (
          insert into bond_ledger_entries (company_id, permit_id, kind, change, amount_after, effective_date,
            obligee_acceptance_date, percent, reason, document_id, reverses_id, created_by, created_by_name)
          select r.company_id, r.permit_id, r.kind, r.change, r.amount_after, r.effective_date,
            r.obligee_acceptance_date, r.percent, r.reason, r.document_id, r.reverses_id, ${actor.userId}, ${actor.name}
          from jsonb_to_recordset(${json}::jsonb) as r(ord int, company_id uuid, permit_id uuid, kind text,
            change numeric, amount_after numeric, effective_date date, obligee_acceptance_date date,
            percent numeric, reason text, document_id uuid, reverses_id uuid)
          order by r.ord
          returning id, permit_id, seq, kind, change, amount_after, effective_date
        ),
        upd as (
          update permits p set current_amount = v.amount_after, bond_status = v.status, updated_at = now()
          from (select distinct on (r.permit_id) r.permit_id, r.amount_after, r.status
                from jsonb_to_recordset(${json}::jsonb) as r(ord int, permit_id uuid, amount_after numeric, status text)
                order by r.permit_id, r.ord desc) v
          where p.id = v.permit_id
        ),
        aud as (${audit})
        select id, permit_id, kind, change::text, amount_after::text, effective_date::text from ins order by seq`,
  );
  await emitLedgerEvents(tx, entries, inserted);
  return inserted.map((r) => ({ id: r.id, permitId: r.permit_id }));
}

interface LedgerRow {
  id: string;
  permit_id: string;
  kind: LedgerKind;
  change: string;
  amount_after: string;
  effective_date: string;
}

/**
 * Issue 30: each entry is a webhook event about its bond (the amounts as the ledger stored them), a
 * release also 'bond.released'; one statement per company and type (an import's bonds in one).
 */
async function emitLedgerEvents(tx: Db, entries: NewLedgerEntry[], rows: LedgerRow[]) {
  const companyOf = new Map(entries.map((e) => [e.permit.id, e.permit.companyId]));
  const byCompany = new Map<string, { added: WebhookEventItem[]; released: WebhookEventItem[] }>();
  for (const r of rows) {
    const companyId = companyOf.get(r.permit_id)!;
    const lists = byCompany.get(companyId) ?? { added: [], released: [] };
    byCompany.set(companyId, lists);
    const { kind, change, amount_after, effective_date } = r;
    const item = { permitId: r.permit_id, extra: { entry: { kind, change, amount_after, effective_date } } };
    lists.added.push(item);
    if (kind === "release") lists.released.push(item);
  }
  for (const [companyId, { added, released }] of byCompany) {
    await emitWebhookEvents(tx, companyId, "bond.ledger_entry_added", added);
    await emitWebhookEvents(tx, companyId, "bond.released", released);
  }
}
