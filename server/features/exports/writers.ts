import { PassThrough, Readable } from "node:stream";
import ExcelJS from "exceljs";

/** A cell as the writers take it: text, a number, or empty. */
export type Cell = string | number | null;

/** A column of a written file: its key (the CSV heading), Excel heading and kind of value. */
export interface SheetColumn {
  key: string;
  header: string;
  /** date: ISO text in CSV, a date cell in Excel; money: two decimals, a number cell in Excel. */
  type?: "text" | "date" | "money";
}

const EXCEL_DATE_FORMAT = "yyyy-mm-dd";
const EXCEL_MONEY_FORMAT = "#,##0.00";

/** "2026-03-01" as a date cell: midnight UTC, which ExcelJS writes as the whole day's serial number. */
const excelDate = (iso: string) => {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d!));
};

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
  const text = typeof value === "number" ? value.toFixed(2) : neutralise(value);
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
 * An .xlsx workbook with one sheet, written as a stream: readable headings (bold, frozen), dates as
 * date cells (shown as ISO dates), money as number cells with two decimals.
 */
export function xlsxStream(
  sheetName: string,
  columns: readonly SheetColumn[],
  rows: AsyncIterable<Cell[]>,
): Readable {
  const out = new PassThrough();
  void (async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet(sheetName, { views: [{ state: "frozen", ySplit: 1 }] });
    sheet.columns = columns.map((c) => ({
      header: c.header,
      key: c.key,
      width: Math.max(c.type === "date" ? 13 : 12, c.header.length + 2),
    }));
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    for await (const row of rows) {
      const added = sheet.addRow(
        row.map((v, i) =>
          typeof v === "string" ? (columns[i]!.type === "date" ? excelDate(v) : neutralise(v)) : v,
        ),
      );
      columns.forEach((c, i) => {
        if (c.type === "date") added.getCell(i + 1).numFmt = EXCEL_DATE_FORMAT;
        else if (c.type === "money") added.getCell(i + 1).numFmt = EXCEL_MONEY_FORMAT;
      });
      added.commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => out.destroy(err as Error));
  return out;
}

export const FILE_TYPES = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;
