/**
 * `npm run bench -- --only=packet`: the compliance packet (issue 30) of a project with 500 permits
 * and bonds, built from its rows (buildReport) and drawn to a whole PDF (pdfkit, buffered pages,
 * footers), five times after a warm-up; the median against the issue's 3 s budget, and the page
 * count read back with unpdf (a readable multi-page PDF). The two statements that read the rows are
 * timed by the API section's statement budget, not here.
 */
import { getDocumentProxy } from "unpdf";
import { addDays, todayIn } from "../../shared/domain/dates.ts";
import { packetPdfBuffer } from "../../server/features/packets/packet-pdf.ts";
import { buildReport } from "../../server/features/packets/report.ts";
import type { ReportHeader, ReportRow } from "../../server/features/packets/report.query.ts";
import { figure, type Figure } from "./lib.ts";

export const PACKET_PERMITS = 500;
const BUDGET_MS = 3000;

function rows(n: number): ReportRow[] {
  const today = todayIn("America/Denver");
  return Array.from({ length: n }, (_, i) => {
    const bond = i % 5 === 4;
    return {
      recordType: bond ? "bond" : "permit",
      permitNumber: `BP-${String(i + 1).padStart(5, "0")}`,
      permitName: `Building permit for level ${i % 40} east wing, phase ${i % 7}`,
      agency: ["City of Boulder", "Boulder County", "CDOT Region 4", "Colorado DPHE"][i % 4]!,
      status: ["Required", "In Waiting", "Pending"][i % 3]!,
      issueDate: addDays(today, -300 - (i % 50)),
      expirationDate: addDays(today, (i % 120) - 20),
      closeDate: null,
      finalStatus: null,
      bondStatus: bond ? "active" : null,
      renewByDate: i % 9 === 0 ? addDays(today, (i % 60) - 30) : null,
      bondNumber: bond ? `SB-${100000 + i}` : null,
      guaranteeType: bond ? "Performance" : null,
      bondAmount: bond ? "250000.00" : null,
      currentAmount: bond ? "187500.00" : null,
      suretyName: bond ? "Keystone Surety Co." : null,
      projectName: "Summit Ridge Tower",
      responsibleName: ["Dana Whitfield", "Sam Baker", null][i % 3]!,
      openRequests: i % 25 === 0 ? 1 : 0,
      overdueTasks: i % 33 === 0 ? 2 : 0,
    } as ReportRow;
  });
}

export async function packetFigures(): Promise<Figure[]> {
  const header: ReportHeader = {
    companyId: "00000000-0000-0000-0000-000000000000",
    companyName: "Summit Ridge Builders",
    timeZone: "America/Denver",
    currency: "USD",
    logo: null,
    project: { id: "p", name: "Summit Ridge Tower", number: "SR-2026-01" },
    client: { id: "c", name: "Front Range Development" },
  };
  const data = rows(PACKET_PERMITS);
  const once = async () => {
    const t = performance.now();
    const pdf = await packetPdfBuffer(buildReport(header, data));
    return { ms: performance.now() - t, pdf };
  };
  await once(); // warm-up: fonts' metrics, JIT
  const runs: number[] = [];
  let last: Buffer = Buffer.alloc(0);
  for (let i = 0; i < 5; i++) {
    const { ms, pdf } = await once();
    runs.push(ms);
    last = pdf;
  }
  runs.sort((a, b) => a - b);
  const pages = (await getDocumentProxy(new Uint8Array(last))).numPages;
  console.log(
    `  ${PACKET_PERMITS} permits and bonds: median ${runs[2]!.toFixed(0)} ms, max ${runs[4]!.toFixed(0)} ms, ${pages} pages, ${(last.length / 1024).toFixed(0)} KB`,
  );
  return [
    figure({
      section: "packet",
      name: `compliance packet, ${PACKET_PERMITS} permits (PDF)`,
      unit: "ms",
      db: "-",
      median: runs[2]!,
      p95: runs[4]!,
      budget: BUDGET_MS,
    }),
    figure({
      section: "packet",
      name: "compliance packet pages",
      unit: "pages",
      db: "-",
      median: pages,
      p95: null,
    }),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await packetFigures();
  console.log(JSON.stringify({ figures }));
}
