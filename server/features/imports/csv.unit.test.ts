import { describe, expect, it } from "vitest";
import { CsvError, decodeCsv, normaliseHeader, parseCsv, type CsvLimits } from "./csv.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const table = (s: string, limits?: CsvLimits) => parseCsv(decodeCsv(enc(s), limits), limits);

describe("CSV reading", () => {
  it("reads quoted fields with separators, doubled quotes and newlines, and counts lines", () => {
    const t = table('a,b,c\n1,"x, y","say ""hi"""\n2,"multi\nline",z\n3,,\n');
    expect(t.header).toEqual(["a", "b", "c"]);
    expect(t.rows.map((r) => r.fields)).toEqual([
      ["1", "x, y", 'say "hi"'],
      ["2", "multi\nline", "z"],
      ["3", "", ""],
    ]);
    expect(t.rows.map((r) => r.line)).toEqual([2, 3, 5]);
  });

  it("handles a BOM, Windows and old Mac line ends, and skips blank lines", () => {
    const t = table("\uFEFFa,b\r\n1,2\r\n\r\n,\r\n3,4\r5,6");
    expect(t.header).toEqual(["a", "b"]);
    expect(t.rows.map((r) => r.fields)).toEqual([
      ["1", "2"],
      ["3", "4"],
      ["5", "6"],
    ]);
    expect(t.rows.map((r) => r.row)).toEqual([2, 5, 6]);
  });

  it("detects semicolon and tab separators from the header", () => {
    expect(table("a;b;c\n1;2,5;3").rows[0]!.fields).toEqual(["1", "2,5", "3"]);
    expect(table("a\tb\n1\t2").delimiter).toBe("\t");
  });

  it("refuses binary, non-UTF-8 and empty files with clear messages", () => {
    expect(() => decodeCsv(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x01]))).toThrow(/binary data/);
    expect(() => decodeCsv(new Uint8Array([0x61, 0xff, 0xfe, 0x62]))).toThrow(/not UTF-8/);
    expect(() => decodeCsv(new Uint8Array())).toThrow(/empty/);
  });

  it("refuses broken quoting with the line number", () => {
    expect(() => table('a,b\n1,"open\n2,3')).toThrow(/Line 2: a quoted value is never closed/);
    expect(() => table('a,b\n1,x"y')).toThrow(/Line 2: a quote/);
    expect(() => table('a,b\n1,"x"y')).toThrow(/Line 2: text after a closing quote/);
  });

  it("enforces size, row, column and field limits while reading", () => {
    const limits: CsvLimits = { maxBytes: 1000, maxRows: 3, maxColumns: 4, maxFieldLength: 10 };
    expect(() => decodeCsv(enc("x".repeat(1001)), limits)).toThrow(CsvError);
    expect(() => table("a\n1\n2\n3\n4", limits)).toThrow(/more than 3 rows/);
    expect(() => table("a,b,c,d,e\n1", limits)).toThrow(/more than 4 columns/);
    expect(() => table(`a\n${"y".repeat(11)}`, limits)).toThrow(/longer than 10 characters/);
    expect(() => table(`a\n"${"y".repeat(11)}"`, limits)).toThrow(/longer than 10 characters/);
    expect(table("a\n1\n2\n3", limits).rows).toHaveLength(3);
  });

  it("reads 50,000 rows when the limit allows them", () => {
    const body = Array.from({ length: 50_000 }, (_, i) => `P${i},2026-01-01,N-${i}`).join("\n");
    const t = table(`project,start_date,permit_number\n${body}`, { ...limitsFor(50_000) });
    expect(t.rows).toHaveLength(50_000);
  });

  it("normalises header names", () => {
    expect(normaliseHeader(" Permit Number ")).toBe("permit_number");
    expect(normaliseHeader("START-DATE")).toBe("start_date");
    expect(normaliseHeader("Application  Date")).toBe("application_date");
  });
});

function limitsFor(rows: number): CsvLimits {
  return { maxBytes: 50 * 1024 * 1024, maxRows: rows, maxColumns: 100, maxFieldLength: 10_000 };
}
