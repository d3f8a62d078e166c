/**
 * The smallest .xlsx that Excel, LibreOffice and the readers open: one sheet, inline strings (no
 * shared-strings table to hold in memory), a few cell styles (plain, bold heading, a date as the
 * screens show it, money, and money in each currency met), the heading row frozen, each column as
 * wide as its heading and first rows need (capped). It is written as a stream: the sheet's XML is
 * made a batch of rows at a time, deflated as it comes and put in a zip whose sizes and checksums
 * follow each entry (a zip "data descriptor"), so memory stays bounded whatever the number of rows;
 * the styles follow the sheet, so that they can hold the currencies its rows brought. No
 * dependency: zlib's deflate and crc32 (Node 20.15+).
 */
import { once } from "node:events";
import zlib from "node:zlib";
import { DISPLAY_LOCALE, formatAmount } from "../../../shared/domain/format.ts";

/** A cell as written: text, a number, an ISO calendar day as a date cell, or nothing. */
export type XlsxCell =
  | { kind: "text"; value: string }
  /** money: two decimals; with a currency (ISO 4217), in it: "$565,263.00". */
  | { kind: "number"; value: number; money?: boolean; currency?: string | null }
  | { kind: "date"; iso: string }
  | null;

export interface XlsxColumn {
  header: string;
  /** The narrowest it may be, in characters (its heading's width is added by the writer). */
  minWidth?: number;
}

/** Cell styles, by their index in styles.xml's cellXfs; each currency met adds one after these. */
const STYLE = { plain: 0, heading: 1, date: 2, money: 3 } as const;

/** A calendar date as the screens show it: "Dec 1, 2027" (shared/domain/format.ts), still a date cell. */
export const DATE_FORMAT = "mmm d, yyyy";
export const MONEY_FORMAT = "#,##0.00";

/**
 * Excel's number format of an amount in `currency` as the screens show it in US English:
 * '"$"#,##0.00', '"€"#,##0.00', '"CHF "#,##0.00', '"¥"#,##0' (a minus goes in front by itself).
 * Null for a code Intl does not know.
 */
export function currencyFormatCode(currency: string): string | null {
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(DISPLAY_LOCALE, { style: "currency", currency });
  } catch {
    return null;
  }
  const parts = format.formatToParts(1234.5);
  const numeric = (type: string) => ["integer", "group", "decimal", "fraction"].includes(type);
  const first = parts.findIndex((p) => numeric(p.type));
  const last = parts.findLastIndex((p) => numeric(p.type));
  const text = (from: number, to: number) =>
    parts
      .slice(from, to)
      .map((p) => p.value)
      .join("")
      .replace(/"/g, "");
  const literal = (t: string) => (t ? `"${t}"` : "");
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  const number = digits > 0 ? `#,##0.${"0".repeat(digits)}` : "#,##0";
  return `${literal(text(0, first))}${number}${literal(text(last + 1, parts.length))}`;
}

/** The workbook's styles: the fixed ones, and one per currency as the rows bring them. */
class Styles {
  private readonly currencies = new Map<string, { style: number; code: string }>();

  /** The style of a money cell in `currency` (the plain money style without one, or for an unknown code). */
  money(currency: string | null | undefined): number {
    if (!currency) return STYLE.money;
    let known = this.currencies.get(currency);
    if (!known) {
      const code = currencyFormatCode(currency);
      if (!code) return STYLE.money;
      known = { style: 4 + this.currencies.size, code };
      this.currencies.set(currency, known);
    }
    return known.style;
  }

  xml(): string {
    const formats = [
      `<numFmt numFmtId="164" formatCode="${escapeXml(DATE_FORMAT)}"/>`,
      `<numFmt numFmtId="165" formatCode="${escapeXml(MONEY_FORMAT)}"/>`,
      ...[...this.currencies.values()].map(
        ({ style, code }) => `<numFmt numFmtId="${162 + style}" formatCode="${escapeXml(code)}"/>`,
      ),
    ];
    const xf = (numFmtId: number) =>
      `<xf numFmtId="${numFmtId}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`;
    const xfs = [
      `<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>`,
      `<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>`,
      xf(164),
      xf(165),
      ...[...this.currencies.values()].map(({ style }) => xf(162 + style)),
    ];
    return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="${formats.length}">${formats.join("")}</numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${xfs.length}">${xfs.join("")}</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;
  }
}

const CONTENT_TYPES_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;

const ROOT_RELS_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

const WORKBOOK_RELS_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;

const workbookXml = (sheetName: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><bookViews><workbookView/></bookViews><sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

// Control characters are what this looks for.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]/g;

/**
 * Text as XML character data. Characters XML 1.0 cannot hold (controls other than tab, line feed
 * and carriage return; U+FFFE, U+FFFF) and DEL are dropped, as ExcelJS did; a lone surrogate
 * becomes U+FFFD.
 */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, "")
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
    .replace(/[&<>"]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&quot;"));
}

/** A spreadsheet's column letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** Excel's serial day number of an ISO calendar day (days since 1899-12-30), or null if it is none. */
export function excelSerialDay(iso: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isFinite(ms) ? ms / 86_400_000 + 25_569 : null;
}

function cellXml(ref: string, cell: XlsxCell, styles: Styles, heading = false): string {
  if (cell === null) return "";
  if (cell.kind === "number") {
    if (!Number.isFinite(cell.value)) return "";
    const style = cell.money ? styles.money(cell.currency) : STYLE.plain;
    return `<c r="${ref}"${style ? ` s="${style}"` : ""}><v>${cell.value}</v></c>`;
  }
  if (cell.kind === "date") {
    const serial = excelSerialDay(cell.iso);
    if (serial !== null) return `<c r="${ref}" s="${STYLE.date}"><v>${serial}</v></c>`;
    cell = { kind: "text", value: cell.iso };
  }
  const text = escapeXml(cell.value);
  const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : "";
  return `<c r="${ref}"${heading ? ` s="${STYLE.heading}"` : ""} t="inlineStr"><is><t${space}>${text}</t></is></c>`;
}

/** How much sheet XML is handed to deflate at a time. */
const SHEET_CHUNK_CHARS = 64 * 1024;

/** The rows a column's width is measured on: the first ones, before the sheet is written. */
export const MEASURED_ROWS = 500;
/** The widest a column gets, in characters: a long link or note wraps the rest in the cell. */
export const MAX_COLUMN_WIDTH = 50;

/** About how many characters a cell shows (its longest line; a date as "Sep 30, 2027"). */
function shownLength(cell: XlsxCell): number {
  if (cell === null) return 0;
  if (cell.kind === "date") return excelSerialDay(cell.iso) === null ? cell.iso.length : 12;
  if (cell.kind === "number")
    return (cell.money ? (formatAmount(cell.value, cell.currency ?? null) ?? "") : String(cell.value)).length;
  let longest = 0;
  for (const line of cell.value.split("\n")) longest = Math.max(longest, line.length);
  return longest;
}

/**
 * Each column as wide as its heading (bold: a character more) and the first rows' values need,
 * with a little room, capped at MAX_COLUMN_WIDTH: names are not cut, a long link does not make
 * the sheet a mile wide.
 */
export function columnWidths(columns: readonly XlsxColumn[], rows: readonly XlsxCell[][]): number[] {
  return columns.map((c, i) => {
    let widest = Math.max(c.header.length + 1, c.minWidth ?? 0);
    for (const row of rows) widest = Math.max(widest, shownLength(row[i] ?? null));
    return Math.min(MAX_COLUMN_WIDTH, widest + 2);
  });
}

async function* sheetXml(columns: readonly XlsxColumn[], rows: AsyncIterable<XlsxCell[]>, styles: Styles) {
  const source = rows[Symbol.asyncIterator]();
  try {
    // The first rows are read before the sheet begins: its columns' widths come first in the XML.
    const first: XlsxCell[][] = [];
    let more = true;
    while (first.length < MEASURED_ROWS) {
      const next = await source.next();
      if (next.done) {
        more = false;
        break;
      }
      first.push(next.value);
    }
    const widths = columnWidths(columns, first);
    const refs = columns.map((_, i) => columnLetters(i));
    const cols = widths
      .map((width, i) => `<col min="${i + 1}" max="${i + 1}" width="${width}" customWidth="1"/>`)
      .join("");
    let chunk =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n` +
      `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
      // The heading row stays in view while the rows scroll under it.
      `<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>` +
      `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>` +
      `<row r="1">${columns.map((c, i) => cellXml(`${refs[i]}1`, { kind: "text", value: c.header }, styles, true)).join("")}</row>`;
    let r = 1;
    const rest: AsyncIterable<XlsxCell[]> = { [Symbol.asyncIterator]: () => source };
    async function* all() {
      yield* first;
      if (more) yield* rest;
    }
    for await (const row of all()) {
      r++;
      chunk += `<row r="${r}">`;
      for (let i = 0; i < row.length; i++)
        chunk += cellXml(`${refs[i] ?? columnLetters(i)}${r}`, row[i]!, styles);
      chunk += "</row>";
      if (chunk.length >= SHEET_CHUNK_CHARS) {
        yield chunk;
        chunk = "";
      }
    }
    yield `${chunk}</sheetData></worksheet>`;
  } finally {
    // A reader that went away (or a failure) stops the rows too.
    await source.return?.();
  }
}

// ---------------------------------------------------------------------------------------------
// A streamed zip (PKWARE APPNOTE 4.3: local headers with data descriptors, deflate, no zip64)

interface ZipEntry {
  name: string;
  data: string | AsyncIterable<string>;
}

const MAX_32 = 0xffff_ffff;

/** The current time as MS-DOS date and time fields. */
function dosDateTime(d = new Date()) {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((Math.max(1980, d.getFullYear()) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** Deflates `source`, yielding the compressed bytes; `sum` gets the plain bytes' size and CRC-32. */
async function* deflated(source: string | AsyncIterable<string>, sum: { crc: number; size: number }) {
  const deflate = zlib.createDeflateRaw();
  // Set when the reader went away (a download cancelled): the source is stopped, nothing is written.
  const stop = new AbortController();
  const feed = async () => {
    for await (const text of typeof source === "string" ? [source] : source) {
      if (stop.signal.aborted) return;
      const bytes = Buffer.from(text, "utf8");
      sum.crc = zlib.crc32(bytes, sum.crc);
      sum.size += bytes.length;
      if (!deflate.write(bytes)) await once(deflate, "drain", { signal: stop.signal });
    }
    deflate.end();
  };
  // A failing source (the database gone mid-export) fails the stream instead of leaving it waiting.
  feed().catch((err: unknown) => deflate.destroy(stop.signal.aborted ? undefined : (err as Error)));
  try {
    for await (const out of deflate) yield out as Buffer;
  } finally {
    stop.abort();
    deflate.destroy();
  }
}

async function* zip(entries: ZipEntry[]): AsyncGenerator<Buffer> {
  const { time, date } = dosDateTime();
  // Bit 3: sizes and CRC in a data descriptor after the data; bit 11: names are UTF-8.
  const flags = 0x0808;
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    // CRC-32 and sizes (14-25) stay 0: they follow in the data descriptor.
    local.writeUInt16LE(name.length, 26);
    yield local;
    yield name;
    const sum = { crc: 0, size: 0 };
    let compressed = 0;
    for await (const out of deflated(entry.data, sum)) {
      compressed += out.length;
      yield out;
    }
    if (compressed > MAX_32 || sum.size > MAX_32 || offset > MAX_32)
      throw new Error("the workbook is larger than a zip without zip64 holds (4 GB)");
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(sum.crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(sum.size, 12);
    yield descriptor;

    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4); // made by: 2.0, MS-DOS attributes
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(flags, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt16LE(time, 12);
    header.writeUInt16LE(date, 14);
    header.writeUInt32LE(sum.crc >>> 0, 16);
    header.writeUInt32LE(compressed, 20);
    header.writeUInt32LE(sum.size, 24);
    header.writeUInt16LE(name.length, 28);
    // extra, comment, disk, attributes: 0
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += local.length + name.length + compressed + descriptor.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  yield directory;
  yield end;
}

/** The bytes of a one-sheet workbook, as they are made (see the top of this file). */
export function xlsxBytes(
  sheetName: string,
  columns: readonly XlsxColumn[],
  rows: AsyncIterable<XlsxCell[]>,
): AsyncGenerator<Buffer> {
  const styles = new Styles();
  return zip([
    { name: "[Content_Types].xml", data: CONTENT_TYPES_XML },
    { name: "_rels/.rels", data: ROOT_RELS_XML },
    { name: "xl/workbook.xml", data: workbookXml(sheetName) },
    { name: "xl/_rels/workbook.xml.rels", data: WORKBOOK_RELS_XML },
    { name: "xl/worksheets/sheet1.xml", data: sheetXml(columns, rows, styles) },
    // After the sheet: made when the zip gets here, with every currency the rows brought.
    {
      name: "xl/styles.xml",
      data: (async function* () {
        yield styles.xml();
      })(),
    },
  ]);
}
