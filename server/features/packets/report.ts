import type { Scope } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { EXPIRING_SOON_DAYS } from "../../../shared/domain/constants.ts";
import { daysBetween, todayIn } from "../../../shared/domain/dates.ts";
import type { BondStatus } from "../../../shared/domain/bonds.ts";
import { isClosedRecord, recordStatus } from "../../../shared/domain/record-status.ts";
import type {
  ComplianceBond,
  CompliancePermit,
  ComplianceReport,
} from "../../../shared/schemas/compliance.ts";
import {
  loadReportHeader,
  loadReportRows,
  type ReportHeader,
  type ReportRow,
  type ReportTarget,
} from "./report.query.ts";

// The compliance report (issue 30) from its two statements: the same object makes the PDF and the
// status page, so they cannot disagree.

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "Nov 27, 2026, 10:15 AM EST": the moment as the company's zone reads it. */
export function asOfText(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(now);
}

export function buildReport(header: ReportHeader, rows: ReportRow[], now = new Date()): ComplianceReport {
  const today = todayIn(header.timeZone, now);
  const byStatus = new Map<string, number>();
  let expired = 0;
  let expiring = 0;
  let renewalDue = 0;
  let openRequests = 0;
  let overdueTasks = 0;
  const permits: CompliancePermit[] = [];
  const bonds: ComplianceBond[] = [];
  for (const r of rows) {
    const facts = {
      status: r.status,
      expiration_date: r.expirationDate,
      close_date: r.closeDate,
      final_status: r.finalStatus,
      bond_status: r.bondStatus as BondStatus | null,
    };
    const status = r.status === "N/A" ? "N/A" : recordStatus(facts, today);
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    const counts = r.status !== "N/A" && !isClosedRecord(facts);
    const daysLeft = counts && r.expirationDate ? daysBetween(today, r.expirationDate) : null;
    const flags: string[] = [];
    if (daysLeft !== null && daysLeft < 0) {
      expired++;
      flags.push("Expired");
    } else if (daysLeft !== null && daysLeft <= EXPIRING_SOON_DAYS) {
      expiring++;
      flags.push("Expiring soon");
    }
    if (counts && r.renewByDate && daysBetween(today, r.renewByDate) <= EXPIRING_SOON_DAYS) {
      renewalDue++;
      flags.push(r.renewByDate < today ? "Renewal overdue" : "Renewal due");
    }
    openRequests += r.openRequests;
    overdueTasks += r.overdueTasks;
    if (r.overdueTasks) flags.push(`${plural(r.overdueTasks, "overdue task")}`);
    if (r.recordType === "bond") {
      bonds.push({
        number: r.bondNumber || r.permitNumber,
        name: r.permitName,
        project: r.projectName ?? null,
        surety: r.suretyName ?? null,
        type: r.guaranteeType ?? null,
        status,
        current_amount: r.currentAmount ?? r.bondAmount ?? null,
        expires: r.expirationDate,
        days_left: daysLeft,
        flags,
      });
    } else {
      permits.push({
        number: r.permitNumber,
        name: r.permitName,
        agency: r.agency,
        project: r.projectName ?? null,
        status,
        issued: r.issueDate,
        expires: r.expirationDate,
        days_left: daysLeft,
        responsible: r.responsibleName ?? null,
        flags,
      });
    }
  }
  return {
    company: { name: header.companyName, has_logo: !!header.logo },
    project: header.project ? { name: header.project.name, number: header.project.number } : null,
    client: header.client ? { name: header.client.name } : null,
    as_of: now.toISOString(),
    as_of_text: asOfText(now, header.timeZone),
    time_zone: header.timeZone,
    currency: header.currency,
    summary: {
      total: rows.length,
      by_status: [...byStatus]
        .map(([s, count]) => ({ status: s, count }))
        .sort((a, b) => b.count - a.count || a.status.localeCompare(b.status)),
      expired,
      expiring_30_days: expiring,
      renewal_due: renewalDue,
      open_requests: openRequests,
      overdue_tasks: overdueTasks,
    },
    permits,
    bonds,
  };
}

/** The report of a project or client within the scope (404 outside it): two statements. */
export async function loadReport(db: Db, scope: Scope, target: ReportTarget, now = new Date()) {
  const header = await loadReportHeader(db, scope, target);
  const rows = await loadReportRows(db, scope, header);
  return { header, report: buildReport(header, rows, now) };
}
