import { describe, expect, it } from "vitest";
import { linesFromTextItems, meaningfulCharacters, normalisePageText } from "./reader-text.child.mjs";

describe("a page's text", () => {
  it("keeps lines, collapses runs of spaces, trims, and keeps at most one blank line", () => {
    expect(normalisePageText("  Permit No.   BP-1 \t\r\n\n\n\nIssued:\u00a0\u00a003/15/2026  \n\n")).toBe(
      "Permit No. BP-1\n\nIssued: 03/15/2026",
    );
  });

  it("drops what PostgreSQL text cannot hold or is no text (NUL, controls, a lone surrogate)", () => {
    expect(normalisePageText("Bond\u0000 No.\u0007 PB-1\ud800")).toBe("Bond No. PB-1\ufffd");
  });

  it("counts letters and digits", () => {
    expect(meaningfulCharacters(" - 1 / ÉA .")).toBe(3);
  });
});

describe("lines from PDF.js's text items", () => {
  const item = (str: string, x: number, y: number, width = str.length * 6) => ({
    str,
    transform: [12, 0, 0, 12, x, y],
    width,
  });

  it("joins items on one baseline left to right with a space across a gap, top line first", () => {
    const items = [
      item("BP-2026-00417", 250, 652),
      item("CITY OF SPRINGFIELD", 72, 700),
      item("Permit No.", 72, 652.4),
    ];
    expect(linesFromTextItems(items)).toBe("CITY OF SPRINGFIELD\nPermit No. BP-2026-00417");
  });

  it("adds no space between pieces of one word drawn edge to edge", () => {
    expect(linesFromTextItems([item("Expir", 72, 500, 30), item("ation", 102, 500)])).toBe("Expiration");
  });
});
