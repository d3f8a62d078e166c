import { describe, expect, it } from "vitest";
import {
  addMonths,
  collateralReleaseError,
  fromCents,
  ledgerAmount,
  ledgerStatus,
  nextLedgerState,
  percentOf,
  percentOfLimit,
  runningAmounts,
  toCents,
  type LedgerEntryLike,
  type LedgerStep,
} from "./bonds.ts";

/** Applies steps one by one like the service does, failing loudly on a refusal. */
function build(original: string, ...steps: LedgerStep[]): LedgerEntryLike[] {
  const entries: LedgerEntryLike[] = [{ id: "e0", kind: "original", change: original, reverses_id: null }];
  for (const step of steps) {
    const r = nextLedgerState(entries, step);
    if (!r.ok) throw new Error(r.message);
    entries.push({
      id: `e${entries.length}`,
      kind: step.kind,
      change: r.change,
      reverses_id: step.kind === "reversal" ? step.reverses_id : null,
    });
  }
  return entries;
}

describe("money in cents", () => {
  it("parses and formats amounts exactly", () => {
    expect(toCents("1234.5")).toBe(123450n);
    expect(toCents("-0.01")).toBe(-1n);
    expect(toCents("999999999999.99")).toBe(99999999999999n);
    expect(fromCents(123450n)).toBe("1234.50");
    expect(fromCents(-1n)).toBe("-0.01");
    expect(() => toCents("1.234")).toThrow();
    expect(() => toCents("abc")).toThrow();
  });

  it("takes a percent rounded to the cent, half away from zero", () => {
    expect(percentOf("100.01", "50")).toBe("50.01");
    expect(percentOf("1000.00", "12.5")).toBe("125.00");
    expect(percentOf("0.03", "50")).toBe("0.02");
    expect(percentOf("999999999999.99", "99.99")).toBe("999899999999.99");
    expect(percentOf("33.33", "33.33")).toBe("11.11");
  });

  it("measures use of an aggregate limit to one decimal", () => {
    expect(percentOfLimit("800000.00", "1000000.00")).toBe(80);
    expect(percentOfLimit("1.00", "3.00")).toBe(33.3);
    expect(percentOfLimit("5.00", null)).toBeNull();
    expect(percentOfLimit("5.00", "0.00")).toBeNull();
  });

  it("adds months to a date, clamping to the month's end", () => {
    expect(addMonths("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonths("2026-03-15", 12)).toBe("2027-03-15");
    expect(addMonths("2024-02-29", 24)).toBe("2026-02-28");
    expect(addMonths("2026-11-30", 3)).toBe("2027-02-28");
  });
});

describe("the ledger arithmetic", () => {
  it("runs riders up and down, a percent reduction and a release to 0", () => {
    const e = build(
      "100000.00",
      { kind: "rider", change: "25000" },
      { kind: "rider", change: "-5000.50" },
      { kind: "reduction", amount: null, percent: "50" },
      { kind: "release" },
    );
    expect(runningAmounts(e)).toEqual(["100000.00", "125000.00", "119999.50", "59999.75", "0.00"]);
    expect(e[3]!.change).toBe("-59999.75");
    expect(ledgerAmount(e)).toBe("0.00");
    expect(ledgerStatus(e)).toBe("released");
  });

  it("gives each entry its status: a rider keeps the one before it", () => {
    expect(ledgerStatus(build("10.00"))).toBe("active");
    expect(ledgerStatus(build("10.00", { kind: "rider", change: "5" }))).toBe("active");
    const reduced = build("10.00", { kind: "reduction", amount: "2", percent: null });
    expect(ledgerStatus(reduced)).toBe("reduced");
    expect(
      ledgerStatus(
        build("10.00", { kind: "reduction", amount: "2", percent: null }, { kind: "rider", change: "1" }),
      ),
    ).toBe("reduced");
    expect(ledgerStatus(build("10.00", { kind: "cancellation" }))).toBe("cancelled");
    const claimed = build("10.00", { kind: "claim" });
    expect(ledgerStatus(claimed)).toBe("claimed");
    expect(ledgerAmount(claimed)).toBe("10.00");
    expect(ledgerStatus([])).toBeNull();
  });

  it("never goes below 0 and refuses what makes no sense, on the right field", () => {
    const e = build("1000.00");
    expect(nextLedgerState(e, { kind: "rider", change: "-1000.01" })).toMatchObject({
      ok: false,
      conflict: false,
      field: "change",
    });
    expect(nextLedgerState(e, { kind: "rider", change: "-1000.00" })).toMatchObject({
      ok: true,
      amount_after: "0.00",
    });
    expect(nextLedgerState(e, { kind: "rider", change: "0" })).toMatchObject({ ok: false, field: "change" });
    expect(nextLedgerState(e, { kind: "reduction", amount: "1000", percent: null })).toMatchObject({
      ok: false,
      field: "amount",
    });
    expect(nextLedgerState(build("0.01"), { kind: "reduction", amount: null, percent: "10" })).toMatchObject({
      ok: false,
      field: "percent",
    });
    expect(nextLedgerState([], { kind: "rider", change: "1" })).toMatchObject({ ok: false, conflict: true });
  });

  it("reverses an entry once, never the original or a reversal, and restores amount and status", () => {
    const e = build("1000.00", { kind: "reduction", amount: null, percent: "25" });
    const reduction = e[1]!;
    const r = nextLedgerState(e, { kind: "reversal", reverses_id: reduction.id });
    expect(r).toMatchObject({ ok: true, change: "250.00", amount_after: "1000.00", status: "active" });
    const after = build(
      "1000.00",
      { kind: "reduction", amount: null, percent: "25" },
      { kind: "reversal", reverses_id: "e1" },
    );
    expect(nextLedgerState(after, { kind: "reversal", reverses_id: "e1" })).toMatchObject({
      ok: false,
      conflict: true,
      message: "This entry was already reversed.",
    });
    expect(nextLedgerState(after, { kind: "reversal", reverses_id: "e2" })).toMatchObject({
      ok: false,
      conflict: true,
      message: "A reversal cannot be reversed.",
    });
    expect(nextLedgerState(after, { kind: "reversal", reverses_id: "e0" })).toMatchObject({
      ok: false,
      conflict: true,
    });
    expect(nextLedgerState(after, { kind: "reversal", reverses_id: "nope" })).toMatchObject({
      ok: false,
      field: "reverses_id",
    });
  });

  it("never goes above the largest amount a bond may hold, while totals may", () => {
    const e = build("999999999000.00");
    expect(nextLedgerState(e, { kind: "rider", change: "999.99" })).toMatchObject({ ok: true });
    expect(nextLedgerState(e, { kind: "rider", change: "1000.00" })).toMatchObject({
      ok: false,
      field: "change",
    });
    const down = build("999999999999.99", { kind: "rider", change: "-1" }, { kind: "rider", change: "1" });
    expect(nextLedgerState(down, { kind: "reversal", reverses_id: "e1" })).toMatchObject({
      ok: false,
      field: "reverses_id",
    });
    expect(fromCents(toCents("999999999999.99") * 3n)).toBe("2999999999999.97");
    expect(percentOfLimit("2999999999999.97", "1000000.00")).toBe(300000000);
  });

  it("refuses a reversal that would take the amount below 0", () => {
    const e = build("100.00", { kind: "rider", change: "900" }, { kind: "rider", change: "-950" });
    expect(nextLedgerState(e, { kind: "reversal", reverses_id: "e1" })).toMatchObject({
      ok: false,
      conflict: false,
      field: "reverses_id",
    });
  });

  it("takes only a reversal of the closing entry on a released bond, and a claimed bond only ends", () => {
    const released = build("500.00", { kind: "rider", change: "100" }, { kind: "release" });
    expect(nextLedgerState(released, { kind: "rider", change: "1" })).toMatchObject({
      ok: false,
      conflict: true,
    });
    expect(nextLedgerState(released, { kind: "reversal", reverses_id: "e1" })).toMatchObject({
      ok: false,
      conflict: true,
    });
    expect(nextLedgerState(released, { kind: "reversal", reverses_id: "e2" })).toMatchObject({
      ok: true,
      amount_after: "600.00",
      status: "active",
    });
    const claimed = build("500.00", { kind: "claim" });
    expect(nextLedgerState(claimed, { kind: "rider", change: "1" })).toMatchObject({
      ok: false,
      conflict: true,
    });
    expect(nextLedgerState(claimed, { kind: "release" })).toMatchObject({ ok: true, status: "released" });
    expect(nextLedgerState(claimed, { kind: "reversal", reverses_id: "e1" })).toMatchObject({
      ok: true,
      status: "active",
    });
  });
});

describe("collateral", () => {
  const held = { held_since: "2026-01-10", released_on: null };
  it("is released with or after the bond, not before", () => {
    expect(collateralReleaseError({ status: "active", closed_on: null }, held, "2026-05-01")).toMatchObject({
      conflict: true,
    });
    const bond = { status: "released" as const, closed_on: "2026-04-01" };
    expect(collateralReleaseError(bond, held, "2026-03-31")).toMatchObject({ conflict: false });
    expect(collateralReleaseError(bond, held, "2026-04-01")).toBeNull();
    expect(
      collateralReleaseError({ status: "cancelled", closed_on: "2025-12-01" }, held, "2026-01-09"),
    ).toMatchObject({
      conflict: false,
      message: "Released On cannot be before Held Since",
    });
    expect(collateralReleaseError(bond, { ...held, released_on: "2026-04-02" }, "2026-04-03")).toMatchObject({
      conflict: true,
    });
  });
});
