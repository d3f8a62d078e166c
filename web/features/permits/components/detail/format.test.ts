import { describe, expect, it } from "vitest";
import { formatBytes, formatDay, formatMoney, initials } from "./format.ts";

describe("permit detail formats", () => {
  it("shows a calendar date as written, whatever the viewer's time zone", () => {
    expect(formatDay("2026-03-04")).toBe("Mar 4, 2026");
    expect(formatDay("2026-12-31")).toBe("Dec 31, 2026");
    expect(formatDay(null)).toBeNull();
  });

  it("formats money, sizes and initials", () => {
    expect(formatMoney("515263.00")).toBe("$515,263.00");
    expect(formatMoney(null)).toBeNull();
    expect(formatBytes(27)).toBe("27 B");
    expect(formatBytes(2048)).toBe("2.0 KB");
    expect(formatBytes(25 * 1024 * 1024)).toBe("25.0 MB");
    expect(initials("Sam Baker")).toBe("SB");
    expect(initials("Jordan Q. Ellis")).toBe("JE");
    expect(initials("  ")).toBe("?");
  });
});
