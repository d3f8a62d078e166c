import { RECORD_TYPE_LABELS, type RecordType } from "../../../shared/domain/statuses.ts";
import type { MailMessage } from "../../mail/mailer.ts";

/** One permit or bond line of a digest. */
export interface DigestItem {
  threshold: number;
  permitId: string;
  permitName: string;
  permitNumber: string;
  recordType: string;
  projectName: string | null;
  clientName: string | null;
  agency: string | null;
  expirationDate: string;
  daysLeft: number;
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
const daysLeftText = (n: number) => (n === 0 ? "expires today" : `${plural(n, "day", "days")} left`);
const typeLabel = (recordType: string) => RECORD_TYPE_LABELS[recordType as RecordType] ?? recordType;

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
  const permitUrl = (id: string) => `${publicUrl}/permits/${id}`;
  const settingsUrl = `${publicUrl}/settings/notifications`;
  const count = digest.items.length;
  const subject = `Permitrack reminder: ${plural(count, "permit or bond", "permits and bonds")} expiring soon (${digest.companyName})`;
  const intro = `These permits and bonds of ${digest.companyName} reached a reminder threshold on ${digest.dueDate}.`;
  const footer = `You receive these e-mails because you are on the reminder list of ${digest.companyName}. An administrator can change this under Notification Settings: ${settingsUrl}`;
  const groups = byThreshold(digest.items);

  const detail = (i: DigestItem): [string, string][] => [
    ["Number", i.permitNumber],
    ["Type", typeLabel(i.recordType)],
    ["Project", i.projectName ?? "—"],
    ["Client", i.clientName ?? "—"],
    ["Agency", i.agency ?? "—"],
    ["Expires", `${i.expirationDate} (${daysLeftText(i.daysLeft)})`],
  ];

  const text = [
    `Hello ${digest.recipientName},`,
    "",
    intro,
    ...groups.flatMap(([threshold, items]) => [
      "",
      `${thresholdHeading(threshold).toUpperCase()} (${items.length})`,
      ...items.flatMap((i) => [
        "",
        `* ${i.permitName}`,
        ...detail(i).map(([label, value]) => `  ${label}: ${value}`),
        `  ${permitUrl(i.permitId)}`,
      ]),
    ]),
    "",
    "--",
    footer,
    "",
  ].join("\n");

  const cell = "padding:6px 10px;border-bottom:1px solid #e0e0e0;text-align:left;vertical-align:top";
  const html = `<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;font-size:14px">
<p>Hello ${escapeHtml(digest.recipientName)},</p>
<p>${escapeHtml(intro)}</p>
${groups
  .map(
    ([
      threshold,
      items,
    ]) => `<h2 style="font-size:16px;color:#005F4B;margin:24px 0 8px">${escapeHtml(thresholdHeading(threshold))} (${items.length})</h2>
<table style="border-collapse:collapse;width:100%">
<thead><tr>${["Permit", "Number", "Type", "Project", "Client", "Agency", "Expires", "Days left"].map((h) => `<th style="${cell}">${h}</th>`).join("")}</tr></thead>
<tbody>
${items
  .map(
    (i) =>
      `<tr><td style="${cell}"><a href="${escapeHtml(permitUrl(i.permitId))}" style="color:#005F4B">${escapeHtml(i.permitName)}</a></td>` +
      [
        i.permitNumber,
        typeLabel(i.recordType),
        i.projectName ?? "—",
        i.clientName ?? "—",
        i.agency ?? "—",
        i.expirationDate,
        daysLeftText(i.daysLeft),
      ]
        // Numbers and dates stay on one line; names may wrap.
        .map(
          (v, col) =>
            `<td style="${cell}${[0, 5, 6].includes(col) ? ";white-space:nowrap" : ""}">${escapeHtml(v)}</td>`,
        )
        .join("") +
      "</tr>",
  )
  .join("\n")}
</tbody></table>`,
  )
  .join("\n")}
<p style="color:#616e7c;font-size:12px;margin-top:32px">${escapeHtml(footer)}</p>
</body></html>`;

  return { subject, text, html };
}
