// The bond ledger (issue 12): a bond's status and amount over time, its collateral, the vocabulary
// the Bonds page and the bond detail share, and the pure ledger arithmetic both sides use (the
// server decides with it; the browser may preview with it). Amounts travel as strings with two
// decimals ("25000.00"), as numeric(14,2) comes out of the database; the arithmetic is in whole
// cents (bigint), never in floating point.

/** A bond's status. Active and Reduced are open (they count as exposure); the rest are not. */
export const BOND_STATUSES = ["active", "reduced", "released", "cancelled", "claimed"] as const;
export type BondStatus = (typeof BOND_STATUSES)[number];
export const BOND_STATUS_LABELS: Record<BondStatus, string> = {
  active: "Active",
  reduced: "Reduced",
  released: "Released",
  cancelled: "Cancelled",
  claimed: "Claimed",
};
/** The statuses whose current amount is 'Open Exposure' (and which the Bond Schedule lists). */
export const OPEN_BOND_STATUSES = ["active", "reduced"] as const satisfies readonly BondStatus[];
export const isOpenBondStatus = (s: BondStatus | null | undefined) => s === "active" || s === "reduced";
/** Closed: the ledger takes nothing but a reversal of the entry that closed it. */
export const CLOSED_BOND_STATUSES = ["released", "cancelled"] as const satisfies readonly BondStatus[];
export const isClosedBondStatus = (s: BondStatus | null | undefined) => s === "released" || s === "cancelled";

/** The kinds of a ledger entry ('Event' in the Bond Ledger table). */
export const LEDGER_KINDS = [
  "original",
  "rider",
  "reduction",
  "release",
  "cancellation",
  "claim",
  "reversal",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
export const LEDGER_KIND_LABELS: Record<LedgerKind, string> = {
  original: "Original Amount",
  rider: "Rider",
  reduction: "Reduction",
  release: "Release",
  cancellation: "Cancellation",
  claim: "Claim",
  reversal: "Reversal",
};
/** What a user may add through POST /api/bonds/:id/ledger ('original' is written by the bond form). */
export const ADDABLE_LEDGER_KINDS = [
  "rider",
  "reduction",
  "release",
  "cancellation",
  "claim",
  "reversal",
] as const satisfies readonly LedgerKind[];
export type AddableLedgerKind = (typeof ADDABLE_LEDGER_KINDS)[number];

/** Collateral held by the surety. */
export const COLLATERAL_FORMS = ["letter_of_credit", "cash", "other"] as const;
export type CollateralForm = (typeof COLLATERAL_FORMS)[number];
export const COLLATERAL_FORM_LABELS: Record<CollateralForm, string> = {
  letter_of_credit: "Letter of Credit",
  cash: "Cash",
  other: "Other",
};

/** The company setting's default (ISO 4217). */
export const DEFAULT_CURRENCY = "USD";
export const CURRENCY_PATTERN = /^[A-Z]{3}$/;

/** 'Start Maintenance Bond': the term choices the dialog offers (any 1..120 months is accepted). */
export const MAINTENANCE_TERM_MONTHS = [12, 24] as const;
export const MAINTENANCE_TERM_MONTHS_MAX = 120;

/** Surety exposure over this share of its aggregate limit shows in the warning colour. */
export const SURETY_WARNING_PERCENT = 80;

/** Rows of by_client and by_project (the largest by open exposure); by_surety has every surety. */
export const BOND_BREAKDOWN_ROWS = 10;

/** The Bonds table's sortable columns. */
export const BOND_SORT_FIELDS = [
  "permit_number",
  "permit_name",
  "bond_number",
  "surety",
  "client",
  "project",
  "agency",
  "guarantee_type",
  "status",
  "bond_amount",
  "current_amount",
  "issue_date",
  "expiration_date",
] as const;
export type BondSortField = (typeof BOND_SORT_FIELDS)[number];
/** Missing sort: by expiration date (soonest first, none last), then by id. */
export const DEFAULT_BOND_SORT: BondSortField = "expiration_date";

// ---------------------------------------------------------------------------------------------
// Money in cents

/** Up to 12 digits before the point and 2 after (numeric(14,2)); a leading minus for changes. */
export const MONEY_PATTERN = /^-?\d{1,12}(\.\d{1,2})?$/;
/** Percent of a reduction: more than 0, less than 100, at most 2 decimals. */
export const PERCENT_PATTERN = /^\d{1,2}(\.\d{1,2})?$/;

/** The most a bond's amount may be: numeric(14,2)'s largest value. Sums of many bonds may exceed it. */
export const MAX_AMOUNT = "999999999999.99";
const ANY_MONEY = /^-?\d+(\.\d{1,2})?$/;

/** "1234.5" -> 123450n; "-0.01" -> -1n (any number of digits: totals too). Throws on anything else. */
export function toCents(amount: string | number): bigint {
  const s = String(amount).trim();
  if (!ANY_MONEY.test(s)) throw new Error(`Not an amount: ${s}`);
  const negative = s.startsWith("-");
  const [whole, frac = ""] = s.replace("-", "").split(".");
  const cents = BigInt(whole!) * 100n + BigInt((frac + "00").slice(0, 2));
  return negative ? -cents : cents;
}

/** 123450n -> "1234.50"; -1n -> "-0.01". */
export function fromCents(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const s = `${abs / 100n}.${String(abs % 100n).padStart(2, "0")}`;
  return negative ? `-${s}` : s;
}

/** a + b (or a - b with `sign` -1), as amount strings. */
export const addMoney = (a: string, b: string, sign: 1 | -1 = 1) =>
  fromCents(toCents(a) + BigInt(sign) * toCents(b));

/** The sum of amounts ("0.00" for none). */
export const sumMoney = (amounts: readonly string[]) =>
  fromCents(amounts.reduce((s, a) => s + toCents(a), 0n));

/**
 * `percent` of `amount`, rounded to the cent half away from zero: 50 % of 100.01 is 50.01,
 * 12.5 % of 1000.00 is 125.00.
 */
export function percentOf(amount: string, percent: string): string {
  const hundredths = toCents(percent); // percent × 100
  const product = toCents(amount) * hundredths; // cents × percent × 100
  const negative = product < 0n;
  const abs = negative ? -product : product;
  const rounded = (abs + 5000n) / 10000n;
  return fromCents(negative ? -rounded : rounded);
}

// ---------------------------------------------------------------------------------------------
// The ledger

/** What the arithmetic needs of an entry, in ledger order (seq). */
export interface LedgerEntryLike {
  id: string;
  kind: LedgerKind;
  /** Signed: what the entry added to the amount ("-12500.00" for a reduction). */
  change: string;
  /** Set on a reversal: the entry it undoes. */
  reverses_id: string | null;
}

/** The status an entry of `kind` leaves behind; a Rider keeps the one before it. */
function statusOf(kind: LedgerKind, before: BondStatus | null): BondStatus | null {
  switch (kind) {
    case "original":
      return "active";
    case "reduction":
      return "reduced";
    case "release":
      return "released";
    case "cancellation":
      return "cancelled";
    case "claim":
      return "claimed";
    default:
      return before;
  }
}

/** The ids of the entries a later reversal undid. */
export const reversedIds = (entries: readonly LedgerEntryLike[]) =>
  new Set(entries.filter((e) => e.kind === "reversal" && e.reverses_id).map((e) => e.reverses_id!));

/** The amount after every entry, in order (the table's 'Amount' column). */
export function runningAmounts(entries: readonly LedgerEntryLike[]): string[] {
  let cents = 0n;
  return entries.map((e) => fromCents((cents += toCents(e.change))));
}

/** The current amount: the sum of every change (a reversal's change undoes its entry's). */
export const ledgerAmount = (entries: readonly LedgerEntryLike[]) => sumMoney(entries.map((e) => e.change));

/**
 * The status the ledger gives: each entry in order sets its status (a Rider keeps the one before
 * it), as if reversed entries and the reversals themselves had never been written. Null without
 * an original entry.
 */
export function ledgerStatus(entries: readonly LedgerEntryLike[]): BondStatus | null {
  const reversed = reversedIds(entries);
  return entries.reduce<BondStatus | null>(
    (status, e) => (e.kind === "reversal" || reversed.has(e.id) ? status : statusOf(e.kind, status)),
    null,
  );
}

/** The entry that closed a released or cancelled bond (the last one that is not reversed). */
export function closingEntry<E extends LedgerEntryLike>(entries: readonly E[]): E | null {
  const reversed = reversedIds(entries);
  const live = entries.filter((e) => e.kind !== "reversal" && !reversed.has(e.id));
  const last = live[live.length - 1];
  return last && (last.kind === "release" || last.kind === "cancellation") ? last : null;
}

/** A new entry, as the arithmetic needs it (dates, reason and document are the service's). */
export type LedgerStep =
  | { kind: "rider"; change: string }
  | { kind: "reduction"; amount: string | null; percent: string | null }
  | { kind: "release" }
  | { kind: "cancellation" }
  | { kind: "claim" }
  | { kind: "reversal"; reverses_id: string };

/**
 * The outcome of adding a step: the entry's signed change, the amount and status after it; or why
 * not: `conflict` true for a rule of the bond's state (HTTP 409), false for bad input (400, on
 * `field`).
 */
export type LedgerOutcome =
  | { ok: true; change: string; amount_after: string; status: BondStatus }
  | { ok: false; conflict: boolean; field: string | null; message: string };

const refuse = (message: string, field: string | null = null): LedgerOutcome => ({
  ok: false,
  conflict: field === null,
  field,
  message,
});

export const LEDGER_MESSAGES = {
  noOriginal: "This bond has no original amount yet; enter its Bond Amount first.",
  closed: (status: BondStatus, closing: LedgerKind) =>
    `This bond is ${BOND_STATUS_LABELS[status].toLowerCase()}; its ledger takes only a reversal of the ${LEDGER_KIND_LABELS[closing]}.`,
  claimed: "This bond has a claim; it can be released, cancelled, or the claim reversed.",
  riderZero: "Change cannot be 0",
  belowZero: (current: string) => `The amount cannot go below 0 (the current amount is ${current})`,
  reductionTooLarge: (current: string) =>
    `A reduction must leave an amount above 0 (the current amount is ${current}); record a Release to bring the bond to 0`,
  reductionTooSmall: "The reduction rounds to 0.00; enter a larger amount or percent",
  unknownEntry: "Choose an entry of this bond's ledger",
  reverseOriginal: "The original amount cannot be reversed; record a Rider to correct it.",
  reverseReversal: "A reversal cannot be reversed.",
  reversedTwice: "This entry was already reversed.",
  reversalBelowZero: "Reversing this entry would take the amount below 0",
  overMax: `The amount cannot exceed ${MAX_AMOUNT}`,
} as const;

/**
 * Adds `step` to a bond's ledger (`entries` in order): the pure rules of POST /api/bonds/:id/ledger.
 *
 * - Rider: a signed change, not 0; the amount may not go below 0.
 * - Reduction: by an amount, or by a percent of the current amount (rounded to the cent); it must
 *   leave more than 0 (a Release brings a bond to 0). Status Reduced.
 * - Release / Cancellation: the amount goes to 0; status Released / Cancelled (closed).
 * - Claim: status Claimed, amount unchanged. A claimed bond takes a Release, a Cancellation or a
 *   reversal only.
 * - Reversal: undoes one earlier entry's change (never the original, never a reversal, never twice;
 *   on a closed bond only the entry that closed it); the status is the ledger's without that entry.
 */
export function nextLedgerState(entries: readonly LedgerEntryLike[], step: LedgerStep): LedgerOutcome {
  if (!entries.some((e) => e.kind === "original")) return refuse(LEDGER_MESSAGES.noOriginal);
  const status = ledgerStatus(entries)!;
  const current = ledgerAmount(entries);
  const ok = (change: string, after: readonly LedgerEntryLike[]): LedgerOutcome => {
    const amountAfter = addMoney(current, change);
    return { ok: true, change, amount_after: amountAfter, status: ledgerStatus(after)! };
  };
  const withEntry = (kind: LedgerKind, change: string, reverses: string | null = null) => [
    ...entries,
    { id: "\u0000next", kind, change, reverses_id: reverses },
  ];

  if (step.kind === "reversal") {
    const target = entries.find((e) => e.id === step.reverses_id);
    if (!target) return refuse(LEDGER_MESSAGES.unknownEntry, "reverses_id");
    if (target.kind === "original") return refuse(LEDGER_MESSAGES.reverseOriginal);
    if (target.kind === "reversal") return refuse(LEDGER_MESSAGES.reverseReversal);
    if (reversedIds(entries).has(target.id)) return refuse(LEDGER_MESSAGES.reversedTwice);
    if (isClosedBondStatus(status)) {
      const closing = closingEntry(entries);
      if (closing && closing.id !== target.id) return refuse(LEDGER_MESSAGES.closed(status, closing.kind));
    }
    const change = fromCents(-toCents(target.change));
    if (toCents(current) + toCents(change) < 0n)
      return refuse(LEDGER_MESSAGES.reversalBelowZero, "reverses_id");
    if (toCents(current) + toCents(change) > toCents(MAX_AMOUNT))
      return refuse(LEDGER_MESSAGES.overMax, "reverses_id");
    return ok(change, withEntry("reversal", change, target.id));
  }

  if (isClosedBondStatus(status)) {
    const closing = closingEntry(entries);
    return refuse(LEDGER_MESSAGES.closed(status, closing?.kind ?? "release"));
  }
  if (status === "claimed" && step.kind !== "release" && step.kind !== "cancellation")
    return refuse(LEDGER_MESSAGES.claimed);

  switch (step.kind) {
    case "rider": {
      const change = fromCents(toCents(step.change));
      if (toCents(change) === 0n) return refuse(LEDGER_MESSAGES.riderZero, "change");
      if (toCents(current) + toCents(change) < 0n)
        return refuse(LEDGER_MESSAGES.belowZero(current), "change");
      if (toCents(current) + toCents(change) > toCents(MAX_AMOUNT))
        return refuse(LEDGER_MESSAGES.overMax, "change");
      return ok(change, withEntry("rider", change));
    }
    case "reduction": {
      const field = step.percent !== null ? "percent" : "amount";
      const by =
        step.percent !== null ? percentOf(current, step.percent) : fromCents(toCents(step.amount ?? "0"));
      if (toCents(by) <= 0n) return refuse(LEDGER_MESSAGES.reductionTooSmall, field);
      if (toCents(by) >= toCents(current)) return refuse(LEDGER_MESSAGES.reductionTooLarge(current), field);
      const change = fromCents(-toCents(by));
      return ok(change, withEntry("reduction", change));
    }
    case "release":
    case "cancellation": {
      const change = fromCents(-toCents(current));
      return ok(change, withEntry(step.kind, change));
    }
    case "claim":
      return ok("0.00", withEntry("claim", "0.00"));
  }
}

/** Which kinds of entry a bond in `status` takes (besides a reversal of a reversible entry). */
export function addableKinds(status: BondStatus | null): AddableLedgerKind[] {
  if (status === null || isClosedBondStatus(status)) return [];
  if (status === "claimed") return ["release", "cancellation"];
  return ["rider", "reduction", "release", "cancellation", "claim"];
}

/** Whether `entry` may be reversed now (the same rules as nextLedgerState's). */
export function isReversible(entries: readonly LedgerEntryLike[], entry: LedgerEntryLike): boolean {
  return nextLedgerState(entries, { kind: "reversal", reverses_id: entry.id }).ok;
}

// ---------------------------------------------------------------------------------------------
// Collateral

export const COLLATERAL_MESSAGES = {
  bondOpen:
    "Collateral is released with or after the bond: release or cancel the bond first, then release its collateral.",
  beforeHeld: "Released On cannot be before Held Since",
  beforeBondRelease: (date: string) =>
    `Released On cannot be before the bond's release (${date}); collateral is released with or after the bond`,
  alreadyReleased: "This collateral was already released.",
  bondClosed: "This bond is closed; it takes no new collateral.",
} as const;

/**
 * Collateral is released with or after the bond (decision 0014): only once the bond is released
 * or cancelled, on or after that entry's effective date and on or after Held Since. Null when
 * allowed; else the message and whether it is a state conflict (409) or bad input (400, on
 * released_on).
 */
export function collateralReleaseError(
  bond: { status: BondStatus | null; closed_on: string | null },
  collateral: { held_since: string; released_on: string | null },
  releasedOn: string,
): { conflict: boolean; message: string } | null {
  if (collateral.released_on) return { conflict: true, message: COLLATERAL_MESSAGES.alreadyReleased };
  if (!isClosedBondStatus(bond.status)) return { conflict: true, message: COLLATERAL_MESSAGES.bondOpen };
  if (releasedOn < collateral.held_since) return { conflict: false, message: COLLATERAL_MESSAGES.beforeHeld };
  if (bond.closed_on && releasedOn < bond.closed_on)
    return { conflict: false, message: COLLATERAL_MESSAGES.beforeBondRelease(bond.closed_on) };
  return null;
}

/** Share of a surety's aggregate limit used, to one decimal; null without a limit. */
export function percentOfLimit(amount: string, limit: string | null): number | null {
  if (limit === null) return null;
  const l = toCents(limit);
  if (l <= 0n) return null;
  return Math.round(Number((toCents(amount) * 10000n) / l) / 10) / 10;
}

/**
 * `months` after an ISO date, the day kept or clamped to the month's last day (2026-01-31 + 1
 * month = 2026-02-28): a maintenance bond's expiration from its start and term.
 */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = Math.min(d, last);
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
