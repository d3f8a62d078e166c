import { sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { lifecycleRefusal } from "../../access/policies/lifecycle.ts";
import { withAuditSource, type PermitAuditEntry } from "../../audit/audit-writer.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { allow, conflict, validation } from "../../errors.ts";
import {
  addMoney,
  ledgerStatus,
  nextLedgerState,
  toCents,
  type BondStatus,
} from "../../../shared/domain/bonds.ts";
import { SUGGESTION_FIELD_LABELS, type SuggestionField } from "../../../shared/domain/document-reading.ts";
import { formatDate } from "../../../shared/domain/format.ts";
import type { AcceptSuggestions } from "../../../shared/schemas/document-readings.ts";
import { InspectionInputSchema } from "../../../shared/schemas/lifecycle.ts";
import { PermitInputSchema } from "../../../shared/schemas/permit-input.ts";
import { appendLedgerEntries } from "../bond-ledger/index.ts";
import { recordInspection } from "../lifecycle/index.ts";
import { findVisiblePermit, permitInputOf, updatePermit, type PermitRow } from "../permits/index.ts";
import { findPermitReading } from "./readings.repository.ts";

// POST /api/permits/:id/accept-suggestions (issue 28): the values a person accepted from one reading,
// saved through the normal writes in one transaction: the permit's form fields through its update
// (validation, audit), a bond's new amount as a Rider through the ledger's writer, an inspection
// through the lifecycle's. Every audit entry written says where the value came from ("from document
// permit.pdf, page 1"). Anything refused: 400 (or 409) in words, and nothing is written.

/** The permit form's fields a document may fill, by the suggestion's field. */
const FORM_FIELDS = [
  "permit_number",
  "issue_date",
  "expiration_date",
  "agency",
  "bond_number",
  "surety_company",
] as const satisfies readonly SuggestionField[];
const BOND_ONLY: readonly SuggestionField[] = [
  "bond_number",
  "surety_company",
  "bond_amount",
  "rider_effective_date",
];

/** The type an inspection accepted from a document is recorded as. */
export const INSPECTION_FROM_DOCUMENT = "Inspection (from document)";

const refused = (field: SuggestionField | "fields", message: string) =>
  validation({ [field]: message }, message);

interface LedgerRow {
  id: string;
  kind: "original" | "rider" | "reduction" | "release" | "cancellation" | "claim" | "reversal";
  change: string;
  reverses_id: string | null;
  effectiveDate: string;
}

async function ledgerOf(tx: Db, bondId: string) {
  return queryRows<LedgerRow>(
    tx,
    sql`select id, kind, change::text as change, reverses_id, effective_date::text as "effectiveDate"
        from bond_ledger_entries where permit_id = ${bondId} order by seq`,
  );
}

/** The company's surety of that name (any case), or 400: a document never creates a surety. */
async function suretyNamed(tx: Db, companyId: string, name: string) {
  const [row] = await queryRows<{ id: string; name: string }>(
    tx,
    sql`select id, name from sureties where company_id = ${companyId} and lower(btrim(name)) = lower(btrim(${name}))
        order by name limit 1`,
  );
  if (!row) {
    throw refused(
      "surety_company",
      `No surety named "${name}" in this company: add it in Surety Admin first, or choose the surety on the bond's form.`,
    );
  }
  return row;
}

/** A Rider that brings the bond to `amount` from `effectiveDate`, through the ledger's rules and writer. */
async function addRider(
  tx: Db,
  actor: Actor,
  bond: PermitRow,
  amount: string,
  effectiveDate: string,
  documentId: string | null,
) {
  const entries = await ledgerOf(tx, bond.id);
  const original = entries.find((e) => e.kind === "original");
  if (!original) {
    throw refused("bond_amount", "This bond has no original amount yet; enter its Bond Amount first.");
  }
  if (effectiveDate < original.effectiveDate) {
    const message = `Effective Date cannot be before the bond's original amount (${formatDate(original.effectiveDate)})`;
    throw refused("rider_effective_date", message);
  }
  const money = PermitInputSchema.shape.bond_amount.safeParse(amount);
  if (!money.success || money.data === null)
    throw refused("bond_amount", "Bond Amount must be an amount such as 12500.00");
  const current = bond.currentAmount ?? "0";
  const change = addMoney(money.data, current, -1);
  if (toCents(change) === 0n)
    throw refused("bond_amount", "The bond's amount is already this amount: there is no rider to record.");
  const outcome = nextLedgerState(entries, { kind: "rider", change });
  if (!outcome.ok) {
    if (outcome.conflict) throw conflict(outcome.message);
    throw refused("bond_amount", outcome.message);
  }
  await appendLedgerEntries(tx, actor, [
    {
      permit: bond,
      kind: "rider",
      change: outcome.change,
      amountAfter: outcome.amount_after,
      status: outcome.status,
      statusBefore: ledgerStatus(entries) ?? (bond.bondStatus as BondStatus | null),
      effectiveDate,
      reason: null,
      documentId,
    },
  ]);
}

/**
 * Saves the accepted values into the permit, in the caller's transaction (the route's lockedWrite
 * holds the permit locked); returns the permit as it is now.
 */
export async function acceptSuggestions(
  tx: Db,
  actor: Actor,
  permit: PermitRow,
  input: AcceptSuggestions,
): Promise<PermitRow> {
  const reading = await findPermitReading(tx, permit, input.reading_id);
  // The file's name as this permit has it (the same bytes may have come first under another name).
  const filename = reading.shownAs ?? reading.filename;
  if (reading.status !== "done") throw conflict("This document has not been read yet.");
  const values = new Map<SuggestionField, string>();
  for (const { field, value } of input.fields) {
    if (values.has(field)) throw refused(field, `${SUGGESTION_FIELD_LABELS[field]} is sent twice.`);
    values.set(field, value);
  }
  // Each value's page: the suggestion of that field with that value, else the field's first one.
  const sourceOf = new Map<SuggestionField, string>();
  for (const field of values.keys()) {
    const found = reading.suggestions.filter((s) => s.field === field);
    const page = (found.find((s) => s.value === values.get(field)) ?? found[0])?.page;
    if (page === undefined) {
      throw refused(field, `${filename} suggests no ${SUGGESTION_FIELD_LABELS[field]}.`);
    }
    sourceOf.set(field, `from document ${filename}, page ${page}`);
  }
  const isBond = permit.recordType === "bond";
  for (const field of values.keys()) {
    if (BOND_ONLY.includes(field) && !isBond)
      throw refused(field, `${SUGGESTION_FIELD_LABELS[field]} applies to a bond; this is a permit.`);
  }
  const pair = (a: SuggestionField, b: SuggestionField) => {
    if (values.has(a) !== values.has(b))
      throw refused(
        values.has(a) ? b : a,
        `Accept ${SUGGESTION_FIELD_LABELS[a]} together with ${SUGGESTION_FIELD_LABELS[b]}.`,
      );
  };
  pair("inspection_result", "inspection_date");
  const rider = values.has("rider_effective_date");
  if (rider) pair("bond_amount", "rider_effective_date");

  // 1. The form's fields (and a bond's first amount, which opens its ledger), through its update.
  const formValues = permitInputOf(permit);
  let formChanged = false;
  for (const field of FORM_FIELDS) {
    const value = values.get(field);
    if (value === undefined) continue;
    formChanged = true;
    if (field === "surety_company") {
      const surety = await suretyNamed(tx, permit.companyId, value);
      Object.assign(formValues, { surety_id: surety.id, surety_company: surety.name });
    } else Object.assign(formValues, { [field]: value });
  }
  if (values.has("bond_amount") && !rider) {
    formChanged = true;
    formValues.bond_amount = values.get("bond_amount")!;
  }
  let current = permit;
  if (formChanged) {
    const parsed = PermitInputSchema.safeParse(formValues);
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0] ?? "fields")] ??= issue.message;
      throw validation(fields);
    }
    const byColumn = (e: PermitAuditEntry) =>
      sourceOf.get(e.field as SuggestionField) ?? sourceOf.get("bond_amount") ?? [...sourceOf.values()][0]!;
    current = await withAuditSource(byColumn, () => updatePermit(tx, actor, permit.id, parsed.data));
  }

  // 2. A bond's new amount from a rider: a ledger entry, with the reading's file as its document
  // (the bond's file the rider was read from, whether uploaded on Attachments or as a ledger document).
  if (rider) {
    const documentId = reading.attachmentId ?? null;
    const date = InspectionInputSchema.shape.date.safeParse(values.get("rider_effective_date"));
    if (!date.success)
      throw refused("rider_effective_date", "Rider Effective Date must be a date (YYYY-MM-DD).");
    await withAuditSource(
      () => sourceOf.get("bond_amount")!,
      () => addRider(tx, actor, current, values.get("bond_amount")!, date.data, documentId),
    );
    current = await findVisiblePermit(tx, actor, permit.id);
  }

  // 3. An inspection, through the lifecycle's 'Save Inspection'.
  if (values.has("inspection_result")) {
    allow(lifecycleRefusal("inspect", actor, current));
    const parsed = InspectionInputSchema.safeParse({
      inspection_type: INSPECTION_FROM_DOCUMENT,
      date: values.get("inspection_date"),
      result: values.get("inspection_result"),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path[0] === "date" ? "inspection_date" : "inspection_result";
      throw refused(field, issue.message);
    }
    current = await withAuditSource(
      () => sourceOf.get("inspection_result")!,
      () => recordInspection(tx, actor, current, parsed.data),
    );
  }
  return current;
}
