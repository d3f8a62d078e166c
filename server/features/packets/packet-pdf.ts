import PDFDocument from "pdfkit";
import { formatAmount, formatDate } from "../../../shared/domain/format.ts";
import type { ComplianceReport } from "../../../shared/schemas/compliance.ts";

// The compliance packet (issue 30) drawn with pdfkit (decision 0034): the standard Helvetica fonts
// built in, no browser; pages buffered (bufferPages) so the footer can say "Page 3 of 12", then the
// document streams out. Every expired or overdue item is marked in words and with "!" (never by
// colour alone).

const MARGIN = 36;
const ROW_H = 15;
/** One more line of a wrapped cell (8 pt text), and the most a cell wraps to. */
const LINE_H = 9.5;
const MAX_LINES = 3;
const FONT = "Helvetica";
const BOLD = "Helvetica-Bold";
const INK = "#1a1a1a";
const MUTED = "#555555";
const ALERT = "#b00020";

interface Column<T> {
  title: string;
  width: number;
  value: (row: T) => string;
  align?: "left" | "right";
}

/** pdfkit's standard fonts speak WinAnsi: keep what they can draw, replace the rest. */
const drawable = (s: string) =>
  s.replace(/[^\x20-\x7e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022]/g, "?");
const dateText = (d: string | null) => formatDate(d) ?? "";
const daysText = (d: number | null) => (d === null ? "" : String(d));
const attention = (flags: string[]) => (flags.length ? `! ${flags.join("; ")}` : "");
const isAlert = (flags: string[]) =>
  flags.some((f) => f === "Expired" || f === "Renewal overdue" || f.includes("overdue task"));

export interface PacketPdfOptions {
  logo?: Buffer | null;
}

/** The packet as a pdfkit document: a readable stream of the PDF, ended. */
export function renderPacketPdf(report: ComplianceReport, opts: PacketPdfOptions = {}): PDFKit.PDFDocument {
  const title = report.project
    ? `Compliance Packet: ${report.project.name}${report.project.number ? ` (${report.project.number})` : ""}`
    : `Compliance Packet: ${report.client?.name ?? ""}`;
  const doc = new PDFDocument({
    size: "LETTER",
    layout: "landscape",
    margin: MARGIN,
    bufferPages: true,
    info: { Title: drawable(title), Author: drawable(report.company.name), Creator: "Permitrack" },
  });
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN - 24;

  // Header: logo, company, what and when.
  let y = MARGIN;
  if (opts.logo) {
    try {
      doc.image(opts.logo, MARGIN, y, { fit: [140, 44] });
    } catch {
      // An image pdfkit cannot read (WebP): the name alone.
    }
  }
  const headX = opts.logo ? MARGIN + 156 : MARGIN;
  doc
    .fillColor(INK)
    .font(BOLD)
    .fontSize(16)
    .text(drawable(report.company.name), headX, y, { width: width - 156 });
  doc
    .font(FONT)
    .fontSize(11)
    .text("Compliance Packet", headX, doc.y + 2);
  y = Math.max(doc.y, MARGIN + 48) + 8;
  doc.font(BOLD).fontSize(12);
  if (report.project) {
    doc.text(
      drawable(
        `Project: ${report.project.name}${report.project.number ? ` (${report.project.number})` : ""}`,
      ),
      MARGIN,
      y,
    );
  }
  if (report.client) doc.text(drawable(`Client: ${report.client.name}`), MARGIN, doc.y + 2);
  doc
    .font(FONT)
    .fontSize(10)
    .fillColor(MUTED)
    .text(drawable(`As of ${report.as_of_text}`), MARGIN, doc.y + 2);
  y = doc.y + 10;

  // Summary.
  const s = report.summary;
  doc.fillColor(INK).font(BOLD).fontSize(12).text("Summary", MARGIN, y);
  const facts: [string, number, boolean][] = [
    ["Permits and bonds", s.total, false],
    ["Expired", s.expired, s.expired > 0],
    ["Expiring in 30 days", s.expiring_30_days, false],
    ["Renewal due", s.renewal_due, false],
    ["Open document requests", s.open_requests, false],
    ["Overdue tasks", s.overdue_tasks, s.overdue_tasks > 0],
  ];
  y = doc.y + 4;
  const cell = width / facts.length;
  facts.forEach(([label, n, alert], i) => {
    const x = MARGIN + i * cell;
    doc
      .rect(x + 2, y, cell - 4, 38)
      .strokeColor(alert ? ALERT : "#bbbbbb")
      .lineWidth(alert ? 1.5 : 0.75)
      .stroke();
    doc
      .fillColor(alert ? ALERT : INK)
      .font(BOLD)
      .fontSize(14)
      .text(`${alert ? "! " : ""}${n}`, x + 8, y + 5, { width: cell - 16, lineBreak: false });
    doc
      .fillColor(MUTED)
      .font(FONT)
      .fontSize(8)
      .text(label, x + 8, y + 24, { width: cell - 16, lineBreak: false });
  });
  y += 46;
  const byStatus = s.by_status.map((b) => `${b.status}: ${b.count}`).join("    ");
  doc
    .fillColor(INK)
    .font(FONT)
    .fontSize(9)
    .text(drawable(`By status: ${byStatus || "none"}`), MARGIN, y, { width });
  y = doc.y + 12;

  const across = !report.project;
  const table = <T extends { flags: string[] }>(heading: string, rows: T[], columns: Column<T>[]) => {
    const total = columns.reduce((n, c) => n + c.width, 0);
    const scale = width / total;
    const head = () => {
      doc.rect(MARGIN, y, width, ROW_H).fill("#e8e8e8");
      let x = MARGIN;
      doc.fillColor(INK).font(BOLD).fontSize(8);
      for (const c of columns) {
        doc.text(c.title, x + 3, y + 4, {
          width: c.width * scale - 6,
          lineBreak: false,
          align: c.align ?? "left",
        });
        x += c.width * scale;
      }
      y += ROW_H;
    };
    if (y + 3 * ROW_H > bottom()) {
      doc.addPage();
      y = MARGIN;
    }
    doc.fillColor(INK).font(BOLD).fontSize(12).text(`${heading} (${rows.length})`, MARGIN, y);
    y = doc.y + 4;
    if (!rows.length) {
      doc.font(FONT).fontSize(9).fillColor(MUTED).text(`No ${heading.toLowerCase()}.`, MARGIN, y);
      y = doc.y + 12;
      return;
    }
    head();
    rows.forEach((row, i) => {
      // A cell wraps (at most three lines) rather than cut a permit number or name short: the row
      // is as tall as its tallest cell.
      doc.font(FONT).fontSize(8);
      const texts = columns.map((c) => drawable(c.value(row)));
      const lines = Math.min(
        MAX_LINES,
        Math.max(
          1,
          ...texts.map((t, k) =>
            Math.round(doc.heightOfString(t, { width: columns[k]!.width * scale - 6 }) / LINE_H),
          ),
        ),
      );
      const rowH = ROW_H + (lines - 1) * LINE_H;
      if (y + rowH > bottom()) {
        doc.addPage();
        y = MARGIN;
        head();
      }
      if (i % 2) doc.rect(MARGIN, y, width, rowH).fill("#f6f6f6");
      const alert = isAlert(row.flags);
      let x = MARGIN;
      columns.forEach((c, k) => {
        const bold = alert && (c.title === "Status" || c.title === "Attention");
        doc
          .fillColor(bold ? ALERT : INK)
          .font(bold ? BOLD : FONT)
          .fontSize(8)
          .text(texts[k]!, x + 3, y + 4, {
            width: c.width * scale - 6,
            height: rowH - 4,
            ellipsis: true,
            align: c.align ?? "left",
          });
        x += c.width * scale;
      });
      y += rowH;
    });
    y += 14;
  };

  type P = ComplianceReport["permits"][number];
  type B = ComplianceReport["bonds"][number];
  table<P>("Permits", report.permits, [
    { title: "Number", width: 70, value: (p) => p.number },
    { title: "Name", width: across ? 105 : 125, value: (p) => p.name },
    ...(across ? [{ title: "Project", width: 80, value: (p: P) => p.project ?? "" }] : []),
    { title: "Agency", width: 85, value: (p) => p.agency ?? "" },
    { title: "Status", width: 84, value: (p) => p.status },
    { title: "Issued", width: 58, value: (p) => dateText(p.issued) },
    { title: "Expires", width: 58, value: (p) => dateText(p.expires) },
    { title: "Days left", width: 40, value: (p) => daysText(p.days_left), align: "right" },
    { title: "Responsible", width: 80, value: (p) => p.responsible ?? "" },
    { title: "Attention", width: 106, value: (p) => attention(p.flags) },
  ]);
  table<B>("Bonds", report.bonds, [
    { title: "Number", width: 80, value: (b) => b.number },
    ...(across ? [{ title: "Project", width: 80, value: (b: B) => b.project ?? "" }] : []),
    { title: "Surety", width: 110, value: (b) => b.surety ?? "" },
    { title: "Type", width: 80, value: (b) => b.type ?? "" },
    { title: "Status", width: 90, value: (b) => b.status },
    {
      title: "Current amount",
      width: 80,
      value: (b) => formatAmount(b.current_amount, report.currency) ?? "",
      align: "right",
    },
    { title: "Expires", width: 62, value: (b) => dateText(b.expires) },
    { title: "Days left", width: 42, value: (b) => daysText(b.days_left), align: "right" },
    { title: "Attention", width: 110, value: (b) => attention(b.flags) },
  ]);

  // A footer and the page number on every page.
  const range = doc.bufferedPageRange();
  const footer = drawable(`${report.company.name} - ${title} - as of ${report.as_of_text}`);
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const keep = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const fy = doc.page.height - MARGIN + 4;
    doc
      .moveTo(MARGIN, fy - 6)
      .lineTo(doc.page.width - MARGIN, fy - 6)
      .strokeColor("#bbbbbb")
      .lineWidth(0.5)
      .stroke();
    doc
      .fillColor(MUTED)
      .font(FONT)
      .fontSize(8)
      .text(footer, MARGIN, fy, { width: width - 90, lineBreak: false, ellipsis: true });
    doc.text(`Page ${i + 1 - range.start} of ${range.count}`, doc.page.width - MARGIN - 90, fy, {
      width: 90,
      align: "right",
      lineBreak: false,
    });
    doc.page.margins.bottom = keep;
  }
  doc.end();
  return doc;
}

/** The whole PDF in memory (the monthly e-mail's attachment). */
export async function packetPdfBuffer(
  report: ComplianceReport,
  opts: PacketPdfOptions = {},
): Promise<Buffer> {
  const doc = renderPacketPdf(report, opts);
  const chunks: Buffer[] = [];
  for await (const chunk of doc) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
