/**
 * A strict, bounded CSV reader for permit imports: RFC 4180 quoting (commas, quotes and newlines
 * inside quoted fields), CRLF/LF/CR line ends, a UTF-8 BOM, and comma, semicolon or tab separators
 * (detected from the header row). Every limit is checked while reading, so a hostile file costs at
 * most `maxBytes` of memory and one pass.
 */

export interface CsvLimits {
  maxBytes: number;
  maxRows: number;
  maxColumns: number;
  maxFieldLength: number;
}

export const DEFAULT_CSV_LIMITS: CsvLimits = {
  maxBytes: 10 * 1024 * 1024,
  maxRows: 20_000,
  maxColumns: 100,
  maxFieldLength: 10_000,
};

export class CsvError extends Error {}

export interface CsvRow {
  /** The spreadsheet row number: records counted from the header (row 1), blank ones included. */
  row: number;
  /** 1-based line number of the row's first line in the file. */
  line: number;
  fields: string[];
}

export interface CsvTable {
  delimiter: "," | ";" | "\t";
  header: string[];
  rows: CsvRow[];
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** Decodes the upload as UTF-8 text, refusing binary files. */
export function decodeCsv(bytes: Uint8Array, limits: CsvLimits = DEFAULT_CSV_LIMITS): string {
  if (bytes.length === 0) throw new CsvError("The file is empty.");
  if (bytes.length > limits.maxBytes) {
    throw new CsvError(`The file is larger than ${fmt(limits.maxBytes / 1024 / 1024)} MB.`);
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    // A NUL cannot be stored; name the line so a mostly-good file can be mended.
    const line = bytes.subarray(0, nul).filter((b) => b === 0x0a).length + 1;
    throw new CsvError(
      `Line ${line}: contains a NUL character (binary data). This is not a CSV text file; remove it and try again.`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new CsvError("This is not a CSV file: it is not UTF-8 text. Save it as 'CSV UTF-8' and try again.");
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The separator that splits the header row into the most columns, counting outside quotes. */
function detectDelimiter(text: string): CsvTable["delimiter"] {
  const counts = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) break;
    else if (!quoted && c in counts) counts[c as keyof typeof counts]++;
  }
  if (counts[";"] > counts[","] && counts[";"] >= counts["\t"]) return ";";
  if (counts["\t"] > counts[","]) return "\t";
  return ",";
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * Parses decoded CSV text; blank lines are skipped; throws CsvError with a line number on bad input.
 * Each value is cut out of the text with slice() (a quoted one in pieces between its doubled quotes),
 * not built a character at a time (`npx tsx scripts/bench/import-export.ts --csv-only` times 20,000 rows).
 */
export function parseCsv(text: string, limits: CsvLimits = DEFAULT_CSV_LIMITS): CsvTable {
  const delimiter = detectDelimiter(text);
  const sep = delimiter.charCodeAt(0);
  const n = text.length;
  const records: CsvRow[] = [];
  let fields: string[] = [];
  let line = 1;
  let recordLine = 1;
  let recordCount = 0;

  const tooLong = () =>
    new CsvError(`Line ${recordLine}: a value is longer than ${fmt(limits.maxFieldLength)} characters.`);
  const endField = (value: string) => {
    if (value.length > limits.maxFieldLength) throw tooLong();
    fields.push(value);
    if (fields.length > limits.maxColumns) {
      throw new CsvError(`Line ${recordLine}: more than ${fmt(limits.maxColumns)} columns.`);
    }
  };
  const endRecord = (value: string) => {
    endField(value);
    recordCount++;
    if (fields.some((f) => f.trim() !== "")) {
      records.push({ row: recordCount, line: recordLine, fields });
      // the header is not a data row
      if (records.length - 1 > limits.maxRows) {
        throw new CsvError(
          `The file has more than ${fmt(limits.maxRows)} rows; split it into smaller files.`,
        );
      }
    }
    fields = [];
  };
  const quoteInside = () =>
    new CsvError(
      `Line ${line}: a quote (") inside an unquoted value; quote the whole value and double inner quotes.`,
    );

  // One value per turn: it starts at i and ends at a separator, a line end or the end of the text (j).
  let i = 0;
  while (i < n) {
    let j = i;
    let c = 0;
    while (j < n) {
      c = text.charCodeAt(j);
      if (c === sep || c === LF || c === CR || c === QUOTE) break;
      j++;
    }
    let value: string;
    if (j < n && c === QUOTE) {
      // Only blanks may come before a quoted value's opening quote (and are dropped).
      if (text.slice(i, j).trim() !== "") throw quoteInside();
      value = "";
      let from = j + 1;
      for (;;) {
        const close = text.indexOf('"', from);
        const end = close < 0 ? n : close;
        if (end > from) {
          // A line end inside the value: LF, CRLF (counted once) or a lone CR.
          for (let k = from; k < end; k++) {
            const d = text.charCodeAt(k);
            if (d === LF || (d === CR && text.charCodeAt(k + 1) !== LF)) line++;
          }
          value += text.slice(from, end);
          if (value.length > limits.maxFieldLength) throw tooLong();
        }
        if (close < 0) throw new CsvError(`Line ${recordLine}: a quoted value is never closed.`);
        if (text.charCodeAt(close + 1) === QUOTE) {
          value += '"';
          from = close + 2;
        } else {
          j = close + 1;
          break;
        }
      }
      // After the closing quote: blanks only, up to the separator or the line end.
      for (; j < n; j++) {
        c = text.charCodeAt(j);
        if (c === sep || c === LF || c === CR) break;
        if (c === QUOTE) throw quoteInside();
        if (c !== SPACE && c !== TAB) throw new CsvError(`Line ${line}: text after a closing quote.`);
      }
    } else {
      value = text.slice(i, j);
    }
    if (j >= n) {
      if (value !== "" || fields.length) endRecord(value);
      break;
    }
    if (c === sep) {
      endField(value);
      i = j + 1;
      // A separator at the very end: the record's last value is empty.
      if (i === n) endRecord("");
    } else {
      endRecord(value);
      i = c === CR && text.charCodeAt(j + 1) === LF ? j + 2 : j + 1;
      line++;
      recordLine = line;
    }
  }

  const [head, ...rows] = records;
  if (!head) throw new CsvError("The file has no header row.");
  return { delimiter, header: head.fields, rows };
}

/** "Permit Number", " permit-number " and "PERMIT_NUMBER" all name the column permit_number. */
export function normaliseHeader(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s\-./]+/g, "_")
    .replace(/[^a-z0-9_]/g, "")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "");
}
