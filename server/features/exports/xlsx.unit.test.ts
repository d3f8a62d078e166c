import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { xlsxStream, type Cell, type SheetColumn } from "./writers.ts";
import { columnLetters, escapeXml, excelSerialDay } from "./xlsx.ts";

const COLUMNS: SheetColumn[] = [
  { key: "permit_number", header: "Permit Number" },
  { key: "expiration_date", header: "Expiration Date", type: "date" },
  { key: "bond_amount", header: "Bond Amount", type: "money" },
  { key: "notes", header: "Notes" },
];

async function* rowsOf(rows: Cell[][]) {
  yield* rows;
}

async function bytesOf(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function read(bytes: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book;
}

describe("the Excel writer (xlsx.ts)", () => {
  it("writes bold, frozen headings, date cells, money cells and neutralised text that a reader reads back", async () => {
    const bytes = await bytesOf(
      xlsxStream(
        "Permits",
        COLUMNS,
        rowsOf([
          ["A-1", "2026-12-31", 125000.5, '=HYPERLINK("http://evil")'],
          ["B & <2>", null, null, '  spaced "quotes" \u0001kept\u007f '],
          ["C-3", "not a date", 0, null],
        ]),
      ),
    );
    expect(bytes.subarray(0, 4).toString("binary")).toBe("PK\u0003\u0004");
    const sheet = (await read(bytes)).getWorksheet("Permits")!;
    expect(sheet.rowCount).toBe(4);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      "Permit Number",
      "Expiration Date",
      "Bond Amount",
      "Notes",
    ]);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1, topLeftCell: "A2" });
    // As wide as the bold heading and the values need, with a little room.
    expect(sheet.getColumn(2).width).toBe("Expiration Date".length + 3);

    const row2 = sheet.getRow(2);
    expect(row2.getCell(1).value).toBe("A-1");
    expect(row2.getCell(2).value).toEqual(new Date(Date.UTC(2026, 11, 31)));
    // A date cell, shown as the screens show dates: "Dec 31, 2026".
    expect(row2.getCell(2).numFmt).toBe("mmm d, yyyy");
    expect(row2.getCell(3).value).toBe(125000.5);
    expect(row2.getCell(3).numFmt).toBe("#,##0.00");
    expect(row2.getCell(4).value).toBe('\'=HYPERLINK("http://evil")');

    const row3 = sheet.getRow(3);
    expect(row3.getCell(1).value).toBe("B & <2>");
    expect(row3.getCell(2).value).toBeNull();
    expect(row3.getCell(3).value).toBeNull();
    // Leading and trailing spaces kept; characters XML cannot hold dropped.
    expect(row3.getCell(4).value).toBe('  spaced "quotes" kept ');

    const row4 = sheet.getRow(4);
    expect(row4.getCell(2).value).toBe("not a date");
    expect(row4.getCell(3).value).toBe(0);
  });

  it("writes amounts in their currency, each currency a style of its own", async () => {
    const bytes = await bytesOf(
      xlsxStream(
        "Bonds",
        COLUMNS,
        rowsOf([
          ["USD", null, { amount: 565263, currency: "USD" }, null],
          ["EUR", null, { amount: -1250.5, currency: "EUR" }, null],
          ["JPY", null, { amount: 1000000, currency: "JPY" }, null],
          ["CHF", null, { amount: 10, currency: "CHF" }, null],
          ["none", null, { amount: 10, currency: null }, null],
          ["XYZ", null, { amount: 10, currency: "XYZ" }, null],
          ["USD again", null, { amount: 1, currency: "USD" }, null],
        ]),
      ),
    );
    const sheet = (await read(bytes)).getWorksheet("Bonds")!;
    const formats = [2, 3, 4, 5, 6, 7, 8].map((r) => sheet.getRow(r).getCell(3).numFmt);
    expect(formats).toEqual([
      '"$"#,##0.00',
      '"€"#,##0.00',
      '"¥"#,##0',
      '"CHF\u00a0"#,##0.00',
      "#,##0.00",
      // Intl knows the well-formed code XYZ and writes it in front.
      '"XYZ\u00a0"#,##0.00',
      '"$"#,##0.00',
    ]);
    expect(sheet.getRow(3).getCell(3).value).toBe(-1250.5);
  });

  it("sizes each column to its heading and its first rows, capped", async () => {
    const long = "Stormwater pollution prevention plan and erosion control permit, phase 2 north";
    const bytes = await bytesOf(
      xlsxStream(
        "Permits",
        COLUMNS,
        rowsOf([
          ["Riverside Commons Mixed-Use, Phase 2", "2027-09-30", { amount: 565263, currency: "USD" }, long],
          ["A-2", "2027-12-01", 1, "two\nlines"],
        ]),
      ),
    );
    const sheet = (await read(bytes)).getWorksheet("Permits")!;
    expect(sheet.getColumn(1).width).toBe("Riverside Commons Mixed-Use, Phase 2".length + 2);
    // "Sep 30, 2027" is narrower than its heading.
    expect(sheet.getColumn(2).width).toBe("Expiration Date".length + 3);
    // "$565,263.00" fits under its heading.
    expect(sheet.getColumn(3).width).toBe("Bond Amount".length + 3);
    expect(sheet.getColumn(4).width).toBe(50);
  });

  it("streams: the first bytes leave before the last rows are made, and a reader that leaves stops the rows", async () => {
    let made = 0;
    let finished = false;
    async function* many(): AsyncGenerator<Cell[]> {
      try {
        for (; made < 200_000; made++) yield [`P-${made}`, "2026-01-01", made, "x".repeat(40)];
      } finally {
        finished = true;
      }
    }
    const stream = xlsxStream("Permits", COLUMNS, many());
    let seen = 0;
    for await (const chunk of stream) {
      seen += (chunk as Buffer).length;
      if (seen > 64 * 1024) break; // the reader goes away
    }
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(200_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(finished).toBe(true);
  });

  it("fails the stream when its rows fail", async () => {
    async function* failing(): AsyncGenerator<Cell[]> {
      yield ["A-1", null, null, null];
      throw new Error("the database went away");
    }
    await expect(bytesOf(xlsxStream("Permits", COLUMNS, failing()))).rejects.toThrow(
      "the database went away",
    );
  });

  it("reads back a large sheet whole", async () => {
    async function* rows(): AsyncGenerator<Cell[]> {
      for (let i = 0; i < 20_000; i++) yield [`P-${i}`, "2026-03-01", i + 0.25, `note ${i}`];
    }
    const sheet = (await read(await bytesOf(xlsxStream("Bonds", COLUMNS, rows())))).getWorksheet("Bonds")!;
    expect(sheet.rowCount).toBe(20_001);
    expect(sheet.getRow(20_001).getCell(1).value).toBe("P-19999");
    expect(sheet.getRow(20_001).getCell(3).value).toBe(19999.25);
  });

  it("names columns, days and text as a spreadsheet does", () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnLetters)).toEqual([
      "A",
      "Z",
      "AA",
      "AB",
      "AZ",
      "BA",
      "ZZ",
      "AAA",
    ]);
    expect(excelSerialDay("1900-03-01")).toBe(61);
    expect(excelSerialDay("2026-12-31")).toBe(46387);
    expect(excelSerialDay("2026-1-1")).toBeNull();
    expect(escapeXml('a<b>&"c"\u0000\u000b\t\n\r\ud800x')).toBe("a&lt;b&gt;&amp;&quot;c&quot;\t\n\r\ufffdx");
  });
});
