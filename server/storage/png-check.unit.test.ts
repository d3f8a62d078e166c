import { describe, expect, it } from "vitest";
import { isWellFormedPng } from "./png-check.ts";

const GOOD = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082",
  "hex",
);
/** The matrix's old logo: its IDAT chunk's length is one byte short (a stray byte after its data). */
const STRAY = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201e5270de40000000049454e44ae426082",
  "hex",
);

describe("isWellFormedPng", () => {
  it("takes a well-formed PNG", () => {
    expect(isWellFormedPng(GOOD)).toBe(true);
  });

  it("refuses what pdfkit would choke on or cannot draw", () => {
    expect(isWellFormedPng(STRAY)).toBe(false);
    expect(isWellFormedPng(Buffer.concat([GOOD, Buffer.from([0])]))).toBe(false); // bytes after IEND
    expect(isWellFormedPng(GOOD.subarray(0, GOOD.length - 1))).toBe(false); // cut short
    const badCrc = Buffer.from(GOOD);
    badCrc[30] = badCrc[30]! ^ 0xff;
    expect(isWellFormedPng(badCrc)).toBe(false);
    expect(isWellFormedPng(GOOD.subarray(0, 8))).toBe(false); // the signature alone
    expect(isWellFormedPng(Buffer.from("not a png"))).toBe(false);
  });
});
