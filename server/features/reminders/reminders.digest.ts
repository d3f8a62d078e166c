import { documentLabel, type DocumentKind } from "../../../shared/domain/document-requests.ts";
import { formatDate } from "../../../shared/domain/format.ts";
import { requestedLine } from "../../../shared/domain/request-reminders.ts";
import { RECORD_TYPE_LABELS, type RecordType } from "../../../shared/domain/statuses.ts";
import type { MailMessage } from "../../mail/mailer.ts";
import { paths } from "../../../shared/domain/paths.ts";
import {
  TASK_COLUMNS,
  taskHtmlCells,
  taskSections,
  taskTextLines,
  type DigestTask,
} from "./reminders.digest-tasks.ts";

export type { DigestTask };

/** A document request a digest line speaks of (issue 27). */
export interface DigestRequest {
  partyName: string;
  partyOrganization: string | null;
  documentKind: DocumentKind;
  title: string | null;
  /** The company-local day it was sent. */
  requestedOn: string;
  dueDate: string | null;
  /** open: waiting for the party; submitted: awaiting review. */
  status: "open" | "submitted";
}

/** One permit or bond line of a digest. */
export interface DigestItem {
  /**
   * reminder (a threshold), escalation (nobody acted), overdue (expired and still open),
   * overdue_request (a document request about it is past its due date; issue 27); task_due,
   * task_overdue (the owner's), task_escalation (the admins') about a condition's task (issue 29).
   */
  kind:
    | "reminder"
    | "escalation"
    | "overdue"
    | "overdue_request"
    | "task_due"
    | "task_overdue"
    | "task_escalation";
  threshold: number;
  permitId: string;
  permitName: string;
  permitNumber: string;
  recordType: string;
  projectName: string | null;
  clientName: string | null;
  agency: string | null;
  expirationDate: string;
  /** Set when the permit has a renewal lead time: the reminders count down to it. */
  renewByDate?: string | null;
  /** Days from the digest's day to the countdown date (negative once passed). */
  daysLeft: number;
  /** Signed token of the item's 'Acknowledge' link (reminders and escalations). */
  acknowledgeToken?: string | null;
  /**
   * Reminders and escalations: the open request about the item, not overdue, whose line replaces
   * the countdown. Overdue requests: the request (expirationDate and daysLeft are then its due date's).
   */
  request?: DigestRequest | null;
  /** A task line's task (issue 29): expirationDate is then its due date, daysLeft counts to it. */
  task?: DigestTask | null;
}

export interface Digest {
  recipientEmail: string;
  recipientName: string;
  companyName: string;
  /** The company-local day the reminders became due. */
  dueDate: string;
  items: DigestItem[];
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
export const thresholdHeading = (threshold: number) =>
  `${plural(threshold, "day", "days")} before expiration`;
const daysLeftText = (n: number, renewBy = false) =>
  n === 0
    ? renewBy
      ? "renew today"
      : "expires today"
    : n < 0
      ? `${plural(-n, "day", "days")} overdue`
      : `${plural(n, "day", "days")} left`;

/**
 * The digest's sections in order: escalations first (they need an admin), then reminders, then
 * overdue permits, then overdue requests, then the conditions' tasks (issue 29).
 */
type Section = { key: string; heading: string; items: DigestItem[] };
export const OVERDUE_REQUEST_HEADING = "Overdue request";
function sections(items: DigestItem[]): Section[] {
  const escalation = items.filter((i) => i.kind === "escalation");
  const overdue = items.filter((i) => i.kind === "overdue");
  const overdueRequests = items.filter((i) => i.kind === "overdue_request");
  const reminders = items.filter((i) => i.kind === "reminder");
  const byDate = (a: DigestItem, b: DigestItem) =>
    a.expirationDate.localeCompare(b.expirationDate) || a.permitName.localeCompare(b.permitName);
  return [
    ...(escalation.length
      ? [{ key: "escalation", heading: "Escalation: nobody has acted yet", items: escalation.sort(byDate) }]
      : []),
    ...byThreshold(reminders).map(([threshold, list]) => ({
      key: `t${threshold}`,
      heading: thresholdHeading(threshold),
      items: list,
    })),
    ...(overdue.length
      ? [{ key: "overdue", heading: "Overdue: expired and still open", items: overdue.sort(byDate) }]
      : []),
    ...(overdueRequests.length
      ? [{ key: "overdue_request", heading: OVERDUE_REQUEST_HEADING, items: overdueRequests.sort(byDate) }]
      : []),
    ...taskSections(items),
  ];
}
const typeLabel = (recordType: string) => RECORD_TYPE_LABELS[recordType as RecordType] ?? recordType;
/** A date as the screens show it ("Nov 25, 2026"; shared/domain/format.ts, US English). */
const day = (iso: string) => formatDate(iso) ?? iso;

/** The digest's items by threshold (30, then 7, then 1), each by expiration date then name. */
function byThreshold(items: DigestItem[]): [number, DigestItem[]][] {
  const groups = new Map<number, DigestItem[]>();
  for (const item of items) groups.set(item.threshold, [...(groups.get(item.threshold) ?? []), item]);
  return [...groups.entries()]
    .sort(([a], [b]) => b - a)
    .map(([threshold, list]) => [
      threshold,
      list.sort(
        (a, b) =>
          a.expirationDate.localeCompare(b.expirationDate) || a.permitName.localeCompare(b.permitName),
      ),
    ]);
}

/**
 * One e-mail for one recipient and day, listing every permit and bond that reached a threshold,
 * grouped by threshold. Every user-entered value is escaped in the HTML part.
 */
export function composeDigest(digest: Digest, publicUrl: string): Omit<MailMessage, "to" | "messageId"> {
  const permitUrl = (id: string) => publicUrl + paths.permit(id);
  const ackUrl = (token: string) => publicUrl + paths.acknowledge(token);
  const settingsUrl = publicUrl + paths.notificationSettings;
  const count = digest.items.length;
  const onlyReminders = digest.items.every((i) => i.kind === "reminder");
  const onlyTasks = digest.items.every((i) => i.task);
  const hasTasks = digest.items.some((i) => i.task);
  const subject = onlyReminders
    ? `Permitrack reminder: ${plural(count, "permit or bond", "permits and bonds")} expiring soon (${digest.companyName})`
    : onlyTasks
      ? `Permitrack: ${plural(count, "task needs", "tasks need")} attention (${digest.companyName})`
      : hasTasks
        ? `Permitrack: ${plural(count, "item needs", "items need")} attention (${digest.companyName})`
        : `Permitrack: ${plural(count, "permit or bond needs", "permits and bonds need")} attention (${digest.companyName})`;
  const intro = onlyReminders
    ? `These permits and bonds of ${digest.companyName} reached a reminder threshold on ${day(digest.dueDate)}.`
    : onlyTasks
      ? `These tasks of ${digest.companyName}'s permit conditions are due soon or overdue as of ${day(digest.dueDate)}.`
      : hasTasks
        ? `These permits, bonds and tasks of ${digest.companyName} need attention as of ${day(digest.dueDate)}.`
        : `These permits and bonds of ${digest.companyName} need attention as of ${day(digest.dueDate)}.`;
  const footer = `You receive these e-mails because you are on the reminder list of ${digest.companyName}, responsible for one of these permits or tasks, or one of its administrators. An administrator can change this under Notification Settings: ${settingsUrl}`;
  const groups = sections(digest.items);

  const text = [
    `Hello ${digest.recipientName},`,
    "",
    intro,
    ...groups.flatMap(({ heading, items }) => [
      "",
      `${heading.toUpperCase()} (${items.length})`,
      ...items.flatMap((i) => [
        "",
        `* ${i.task ? i.task.title : i.permitName}`,
        ...(i.task ? taskTextLines(i) : textLines(i)).map(([label, value]) => (label ? `  ${label}: ${value}` : `  ${value}`)),
        `  ${permitUrl(i.permitId)}`,
        ...(i.acknowledgeToken ? [`  I'm on it (Acknowledge): ${ackUrl(i.acknowledgeToken)}`] : []),
      ]),
    ]),
    "",
    "--",
    footer,
    "",
  ].join("\n");

  const cell = "padding:6px 10px;border-bottom:1px solid #e0e0e0;text-align:left;vertical-align:top";
  const link = "color:#005F4B";
  const td = ([value, nowrap]: Cell) =>
    `<td style="${cell}${nowrap ? ";white-space:nowrap" : ""}">${escapeHtml(value)}</td>`;
  const html = `<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;font-size:14px">
<p>Hello ${escapeHtml(digest.recipientName)},</p>
<p>${escapeHtml(intro)}</p>
${groups
  .map(({ key, heading, items }) => {
    const isTasks = key === "tasks" || key === "task_escalation";
    const columns = isTasks ? TASK_COLUMNS : key === "overdue_request" ? REQUEST_COLUMNS : PERMIT_COLUMNS;
    return `<h2 style="font-size:16px;color:#005F4B;margin:24px 0 8px">${escapeHtml(heading)} (${items.length})</h2>
<table style="border-collapse:collapse;width:100%">
<thead><tr>${[isTasks ? "Task" : "Permit", ...columns, ""].map((h) => `<th style="${cell}">${h}</th>`).join("")}</tr></thead>
<tbody>
${items
  .map(
    (i) =>
      `<tr><td style="${cell}"><a href="${escapeHtml(permitUrl(i.permitId))}" style="${link}">${escapeHtml(i.task ? i.task.title : i.permitName)}</a></td>` +
      (i.task ? taskHtmlCells(i) : htmlCells(i)).map(td).join("") +
      `<td style="${cell};white-space:nowrap">${
        i.acknowledgeToken
          ? `<a href="${escapeHtml(ackUrl(i.acknowledgeToken))}" style="${link}">Acknowledge</a>`
          : ""
      }</td></tr>`,
  )
  .join("\n")}
</tbody></table>`;
  })
  .join("\n")}
<p style="color:#616e7c;font-size:12px;margin-top:32px">${escapeHtml(footer)}</p>
</body></html>`;

  return { subject, text, html };
}

/** A table cell of the HTML part: its text, and whether it stays on one line (numbers, dates). */
type Cell = [string, boolean];
const PERMIT_COLUMNS = ["Number", "Type", "Project", "Client", "Agency", "Expires", "Days left"];
const REQUEST_COLUMNS = [
  "Number",
  "Type",
  "Document",
  "Requested from",
  "Requested",
  "Due",
  "Overdue",
  "State",
];

/** A request line replaces the countdown of a reminder or escalation while the request is open and not overdue. */
const countdown = (i: DigestItem) =>
  i.request && i.kind !== "overdue_request"
    ? requestedLine(i.request)
    : daysLeftText(i.daysLeft, !!i.renewByDate);

const party = (r: DigestRequest) =>
  r.partyOrganization ? `${r.partyName} (${r.partyOrganization})` : r.partyName;
const requestState = (r: DigestRequest) =>
  r.status === "submitted" ? "Submitted, awaiting review" : `Waiting for ${r.partyName}`;

/** The text part's lines of an item after its name: [label, value], or ["", value] for a line of its own. */
function textLines(i: DigestItem): [string, string][] {
  const common: [string, string][] = [
    ["Number", i.permitNumber],
    ["Type", typeLabel(i.recordType)],
  ];
  const r = i.request;
  if (i.kind === "overdue_request" && r) {
    return [
      ...common,
      ["Document", documentLabel(r.documentKind, r.title)],
      ["Requested from", `${party(r)} on ${day(r.requestedOn)}`],
      ["Due", `${day(i.expirationDate)} (${daysLeftText(i.daysLeft)})`],
      ["State", requestState(r)],
    ];
  }
  const expiry = i.renewByDate
    ? `${day(i.expirationDate)}; renew by ${day(i.renewByDate)}`
    : day(i.expirationDate);
  return [
    ...common,
    ["Project", i.projectName ?? "—"],
    ["Client", i.clientName ?? "—"],
    ["Agency", i.agency ?? "—"],
    ...((r
      ? [
          ["Expires", expiry],
          ["", countdown(i)],
        ]
      : [["Expires", `${expiry} (${countdown(i)})`]]) as [string, string][]),
  ];
}

/** The HTML part's cells of an item after its name, in its section's columns. */
function htmlCells(i: DigestItem): Cell[] {
  const r = i.request;
  if (i.kind === "overdue_request" && r) {
    return [
      [i.permitNumber, true],
      [typeLabel(i.recordType), false],
      [documentLabel(r.documentKind, r.title), false],
      [party(r), false],
      [day(r.requestedOn), true],
      [day(i.expirationDate), true],
      [daysLeftText(i.daysLeft), true],
      [requestState(r), false],
    ];
  }
  return [
    [i.permitNumber, true],
    [typeLabel(i.recordType), false],
    [i.projectName ?? "—", false],
    [i.clientName ?? "—", false],
    [i.agency ?? "—", false],
    [
      i.renewByDate ? `${day(i.expirationDate)} (renew by ${day(i.renewByDate)})` : day(i.expirationDate),
      true,
    ],
    // A request's line may wrap; a countdown stays on one line.
    [countdown(i), !(r && i.kind !== "overdue_request")],
  ];
}
