import { formatDate } from "../../../shared/domain/format.ts";
import { RECORD_TYPE_LABELS, type RecordType } from "../../../shared/domain/statuses.ts";
import type { MailMessage } from "../../mail/mailer.ts";
import { paths } from "../../../shared/domain/paths.ts";

/** One permit or bond line of a digest. */
export interface DigestItem {
  /** reminder (a threshold), escalation (nobody acted), overdue (expired and still open). */
  kind: "reminder" | "escalation" | "overdue";
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

/** The digest's sections in order: escalations first (they need an admin), then reminders, then overdue. */
type Section = { key: string; heading: string; items: DigestItem[] };
function sections(items: DigestItem[]): Section[] {
  const escalation = items.filter((i) => i.kind === "escalation");
  const overdue = items.filter((i) => i.kind === "overdue");
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
  const subject = onlyReminders
    ? `Permitrack reminder: ${plural(count, "permit or bond", "permits and bonds")} expiring soon (${digest.companyName})`
    : `Permitrack: ${plural(count, "permit or bond needs", "permits and bonds need")} attention (${digest.companyName})`;
  const intro = onlyReminders
    ? `These permits and bonds of ${digest.companyName} reached a reminder threshold on ${day(digest.dueDate)}.`
    : `These permits and bonds of ${digest.companyName} need attention as of ${day(digest.dueDate)}.`;
  const footer = `You receive these e-mails because you are on the reminder list of ${digest.companyName}, responsible for one of these permits, or one of its administrators. An administrator can change this under Notification Settings: ${settingsUrl}`;
  const groups = sections(digest.items);

  const expires = (i: DigestItem) =>
    i.renewByDate
      ? `${day(i.expirationDate)}; renew by ${day(i.renewByDate)} (${daysLeftText(i.daysLeft, true)})`
      : `${day(i.expirationDate)} (${daysLeftText(i.daysLeft)})`;
  const detail = (i: DigestItem): [string, string][] => [
    ["Number", i.permitNumber],
    ["Type", typeLabel(i.recordType)],
    ["Project", i.projectName ?? "—"],
    ["Client", i.clientName ?? "—"],
    ["Agency", i.agency ?? "—"],
    ["Expires", expires(i)],
  ];

  const text = [
    `Hello ${digest.recipientName},`,
    "",
    intro,
    ...groups.flatMap(({ heading, items }) => [
      "",
      `${heading.toUpperCase()} (${items.length})`,
      ...items.flatMap((i) => [
        "",
        `* ${i.permitName}`,
        ...detail(i).map(([label, value]) => `  ${label}: ${value}`),
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
  const html = `<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;font-size:14px">
<p>Hello ${escapeHtml(digest.recipientName)},</p>
<p>${escapeHtml(intro)}</p>
${groups
  .map(
    ({
      heading,
      items,
    }) => `<h2 style="font-size:16px;color:#005F4B;margin:24px 0 8px">${escapeHtml(heading)} (${items.length})</h2>
<table style="border-collapse:collapse;width:100%">
<thead><tr>${["Permit", "Number", "Type", "Project", "Client", "Agency", "Expires", "Days left", ""].map((h) => `<th style="${cell}">${h}</th>`).join("")}</tr></thead>
<tbody>
${items
  .map(
    (i) =>
      `<tr><td style="${cell}"><a href="${escapeHtml(permitUrl(i.permitId))}" style="${link}">${escapeHtml(i.permitName)}</a></td>` +
      [
        i.permitNumber,
        typeLabel(i.recordType),
        i.projectName ?? "—",
        i.clientName ?? "—",
        i.agency ?? "—",
        i.renewByDate ? `${day(i.expirationDate)} (renew by ${day(i.renewByDate)})` : day(i.expirationDate),
        daysLeftText(i.daysLeft, !!i.renewByDate),
      ]
        // Numbers and dates stay on one line; names may wrap.
        .map(
          (v, col) =>
            `<td style="${cell}${[0, 5, 6].includes(col) ? ";white-space:nowrap" : ""}">${escapeHtml(v)}</td>`,
        )
        .join("") +
      `<td style="${cell};white-space:nowrap">${
        i.acknowledgeToken
          ? `<a href="${escapeHtml(ackUrl(i.acknowledgeToken))}" style="${link}">Acknowledge</a>`
          : ""
      }</td></tr>`,
  )
  .join("\n")}
</tbody></table>`,
  )
  .join("\n")}
<p style="color:#616e7c;font-size:12px;margin-top:32px">${escapeHtml(footer)}</p>
</body></html>`;

  return { subject, text, html };
}
