import { Readable } from "node:stream";
import { xlsxBytes, type XlsxCell } from "./xlsx.ts";

/** A cell as the writers take it: text, a number, an amount in its currency (ISO 4217), or empty. */
export type Cell = string | number | null | { amount: number; currency: string | null };

/** A column of a written file: its key (the CSV heading), Excel heading and kind of value. */
export interface SheetColumn {
  key: string;
  header: string;
  /**
   * date: ISO text in CSV, a date cell in Excel shown as the screens show dates ("Dec 1, 2027");
   * money: two decimals in CSV, a number cell in Excel, in its currency when the cell names one.
   */
  type?: "text" | "date" | "money";
}

/**
 * A value a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) gets a
 * leading quote, so it shows as text; the import takes the quote off again.
 */
export function neutralise(value: string): string {
  return FORMULA_FIRST.has(value.charCodeAt(0)) ? `'${value}` : value;
}
/** = + - @ tab and carriage return, as character codes (one lookup per cell, not a regular expression). */
const FORMULA_FIRST = new Set([..."=+-@\t\r"].map((c) => c.charCodeAt(0)));

const csvField = (value: Cell) => {
  if (value === null) return "";
  const text =
    typeof value === "number"
      ? value.toFixed(2)
      : typeof value === "object"
        ? value.amount.toFixed(2)
        : neutralise(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** How much CSV text goes to the socket at a time (a write per line cost more than the lines). */
const CSV_CHUNK_CHARS = 64 * 1024;

/**
 * CSV with a BOM (so Excel reads UTF-8) and CRLF line ends, streamed in chunks of about 64 KB;
 * headings are the column keys.
 */
export function csvStream(columns: readonly SheetColumn[], rows: AsyncIterable<Cell[]>): Readable {
  async function* chunks() {
    let chunk = `\uFEFF${columns.map((c) => c.key).join(",")}\r\n`;
    for await (const row of rows) {
      chunk += `${row.map(csvField).join(",")}\r\n`;
      if (chunk.length >= CSV_CHUNK_CHARS) {
        yield chunk;
        chunk = "";
      }
    }
    if (chunk) yield chunk;
  }
  return Readable.from(chunks());
}

/**
 * An .xlsx workbook with one sheet, written as a stream (xlsx.ts): readable headings (bold, frozen),
 * dates as date cells shown as the screens show them ("Dec 1, 2027"), money as number cells in
 * their currency ("$565,263.00"), columns as wide as their content (capped).
 */
export function xlsxStream(
  sheetName: string,
  columns: readonly SheetColumn[],
  rows: AsyncIterable<Cell[]>,
): Readable {
  async function* cells(): AsyncGenerator<XlsxCell[]> {
    for await (const row of rows)
      yield row.map((v, i): XlsxCell => {
        if (v === null) return null;
        const type = columns[i]?.type;
        if (typeof v === "object")
          return { kind: "number", value: v.amount, money: true, currency: v.currency };
        if (typeof v === "number") return { kind: "number", value: v, money: type === "money" };
        return type === "date" ? { kind: "date", iso: v } : { kind: "text", value: neutralise(v) };
      });
  }
  const sheetColumns = columns.map((c) => ({ header: c.header, minWidth: c.type === "date" ? 11 : 10 }));
  return Readable.from(xlsxBytes(sheetName, sheetColumns, cells()));
}

export const FILE_TYPES = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;
