import { describe, expect, it } from "vitest";
import {
  formatAmount,
  formatAmountChange,
  formatPercent,
  formatBytes,
  formatCount,
  formatDay,
  formatDayOf,
  formatDayOrDash,
  formatMoment,
  initials,
  plural,
} from "./format.ts";

describe("permit detail formats", () => {
  // The tests run in US English (Node's default locale here); the browser's locale decides in the app.
  it("shows a calendar date as written, whatever the viewer's time zone", () => {
    expect(formatDay("2026-03-04")).toBe("Mar 4, 2026");
    expect(formatDay("2026-12-31")).toBe("Dec 31, 2026");
    expect(formatDay(null)).toBeNull();
    expect(formatDayOrDash("2026-11-22")).toBe("Nov 22, 2026");
    expect(formatDayOrDash(null)).toBe("—");
  });

  it("shows timestamps in the same date format", () => {
    const at = new Date(2026, 10, 22, 9, 5).toISOString();
    expect(formatDayOf(at)).toBe("Nov 22, 2026");
    expect(formatMoment(at)).toMatch(/^Nov 22, 2026, 9:05\sAM$/);
  });

  it("formats money, sizes and initials", () => {
    expect(formatAmount("515263.00", "USD")).toBe("$515,263.00");
    expect(formatAmount(null, "USD")).toBeNull();
    expect(formatBytes(27)).toBe("27 B");
    expect(formatBytes(2048)).toBe("2.0 KB");
    expect(formatBytes(25 * 1024 * 1024)).toBe("25.0 MB");
    expect(initials("Sam Baker")).toBe("SB");
    expect(initials("Jordan Q. Ellis")).toBe("JE");
    expect(initials("  ")).toBe("?");
  });
});

describe("list formats", () => {
  it("counts and plurals", () => {
    expect(formatCount(12345)).toBe("12,345");
    expect(plural(1, "permit")).toBe("1 permit");
    expect(plural(2, "N/A permit")).toBe("2 N/A permits");
    expect(formatDayOrDash(undefined)).toBe("—");
  });
});

describe("amounts in a company's currency (issue 12)", () => {
  // US English here; the browser's own locale decides in the app.
  it("formats amounts in the currency given, and without one when a view spans several", () => {
    expect(formatAmount("1250000.00", "USD")).toBe("$1,250,000.00");
    expect(formatAmount("62500.5", "EUR")).toBe("€62,500.50");
    expect(formatAmount("1000", null)).toBe("1,000.00");
    expect(formatAmount(null, "USD")).toBeNull();
  });

  it("signs a ledger change and shows a share as a percentage", () => {
    expect(formatAmountChange("25000.00", "USD")).toBe("+$25,000.00");
    expect(formatAmountChange("-62500.00", "USD")).toBe("-$62,500.00");
    expect(formatAmountChange("0.00", "USD")).toBe("$0.00");
    expect(formatPercent(0.825)).toBe("82.5%");
  });
});
