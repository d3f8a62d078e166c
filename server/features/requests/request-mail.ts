import { formatDate } from "../../../shared/domain/format.ts";
import { requestLinkPath } from "../../../shared/domain/document-requests.ts";
import { partyReminderText } from "./party-reminder.ts";

// The e-mails an outside party gets about a request. Every value a person typed is escaped in the
// HTML part; the subject is one line (the mailer folds line breaks). Nothing of the company beyond
// its name, and of the item beyond its name and number, is in them.

/** What a request e-mail may say: the request, its company and item, and the link. */
export interface RequestMailData {
  kind: string;
  partyName: string;
  companyName: string;
  documentLabel: string;
  message: string | null;
  dueDate: string | null;
  itemName: string;
  itemNumber: string | null;
  rejectReason: string | null;
  /** The threshold of a reminder (days before the due date); 0 for the other kinds. */
  threshold: number;
  link: string;
}

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

/** PUBLIC_URL + /request/<token>. */
export const requestLinkUrl = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, "")}${requestLinkPath(token)}`;

const item = (d: RequestMailData) => (d.itemNumber ? `${d.itemName} (${d.itemNumber})` : d.itemName);
const due = (d: RequestMailData) => (d.dueDate ? `Due Date: ${formatDate(d.dueDate) ?? d.dueDate}` : null);

function compose(d: RequestMailData, subject: string, paragraphs: (string | null)[]): ComposedMail {
  const lines = paragraphs.filter((p): p is string => p !== null);
  const text = [`Hello ${d.partyName},`, ...lines, `Open the request: ${d.link}`, `${d.companyName}`].join(
    "\n\n",
  );
  const html = `<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;font-size:14px">
<p>Hello ${escapeHtml(d.partyName)},</p>
${lines.map((l) => `<p style="white-space:pre-wrap">${escapeHtml(l)}</p>`).join("\n")}
<p><a href="${escapeHtml(d.link)}" style="color:#005F4B;font-weight:bold">Open the request</a></p>
<p style="color:#52606d">${escapeHtml(d.companyName)}</p>
</body></html>`;
  return { subject, text, html };
}

/**
 * The composer of each kind of request_deliveries row. A new kind (the due-date reminders) adds
 * its composer here; the sender leaves a kind without one pending.
 */
export const REQUEST_MAIL_COMPOSERS: Record<string, (d: RequestMailData) => ComposedMail> = {
  request: (d) =>
    compose(d, `${d.companyName} requests a document: ${d.documentLabel}`, [
      `${d.companyName} asks you for a document: ${d.documentLabel}, for ${item(d)}.`,
      d.message,
      due(d),
      "Use the link below to upload the file; no account is needed. The link is for you alone: do not forward it.",
    ]),
  rejection: (d) =>
    compose(d, `${d.companyName} could not accept your document: ${d.documentLabel}`, [
      `${d.companyName} reviewed the document you sent for ${item(d)} (${d.documentLabel}) and could not accept it.`,
      `Reason: ${d.rejectReason ?? ""}`,
      due(d),
      "Please upload it again through the same link.",
    ]),
  // 7 and 1 days before the due date and on it (threshold 7/1/0), recorded by the reminders' sweep.
  reminder: (d) => {
    const { subject, paragraphs } = partyReminderText(d);
    return compose(d, subject, paragraphs);
  },
};
