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

/** Parses decoded CSV text; blank lines are skipped; throws CsvError with a line number on bad input. */
export function parseCsv(text: string, limits: CsvLimits = DEFAULT_CSV_LIMITS): CsvTable {
  const delimiter = detectDelimiter(text);
  const records: CsvRow[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let fieldWasQuoted = false;
  let recordCount = 0;

  const endField = () => {
    if (field.length > limits.maxFieldLength) {
      throw new CsvError(
        `Line ${recordLine}: a value is longer than ${fmt(limits.maxFieldLength)} characters.`,
      );
    }
    fields.push(field);
    if (fields.length > limits.maxColumns) {
      throw new CsvError(`Line ${recordLine}: more than ${fmt(limits.maxColumns)} columns.`);
    }
    field = "";
    fieldWasQuoted = false;
  };
  const endRecord = () => {
    endField();
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

  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        if (c === "\n" || (c === "\r" && text[i + 1] !== "\n")) line++;
        field += c;
        if (field.length > limits.maxFieldLength) {
          throw new CsvError(
            `Line ${recordLine}: a value is longer than ${fmt(limits.maxFieldLength)} characters.`,
          );
        }
      }
      continue;
    }
    if (c === '"') {
      if (field.trim() === "" && !fieldWasQuoted) {
        field = "";
        quoted = true;
        fieldWasQuoted = true;
      } else {
        throw new CsvError(
          `Line ${line}: a quote (") inside an unquoted value; quote the whole value and double inner quotes.`,
        );
      }
    } else if (c === delimiter) {
      endField();
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRecord();
      line++;
      recordLine = line;
    } else if (fieldWasQuoted) {
      if (c !== " " && c !== "\t") throw new CsvError(`Line ${line}: text after a closing quote.`);
    } else {
      field += c;
    }
  }
  if (quoted) throw new CsvError(`Line ${recordLine}: a quoted value is never closed.`);
  if (field !== "" || fields.length) endRecord();

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
