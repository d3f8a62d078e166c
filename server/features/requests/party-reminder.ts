import { formatDate } from "../../../shared/domain/format.ts";

/**
 * The party's reminders of a document request (issue 27, decision 0029): 7 and 1 days before its
 * due date and on it. The reminders' sweep records them (request_deliveries, kind 'reminder',
 * threshold 7/1/0); the sender of request-deliveries.ts re-checks each with reminderRefusal() and
 * e-mails it through request-mail.ts with partyReminderText(), carrying the request's own link.
 */

/** What a reminder says of the request. */
export interface PartyReminderFacts {
  companyName: string;
  documentLabel: string;
  itemName: string;
  itemNumber: string | null;
  dueDate: string | null;
  /** Days before the due date: 7, 1 or 0. */
  threshold: number;
}

const when = (threshold: number, day: string) =>
  threshold === 0
    ? `today, ${day}`
    : threshold === 1
      ? `tomorrow, ${day}`
      : `in ${threshold} days, on ${day}`;

/** The subject and paragraphs of a reminder: "Reminder: COMPANY requests DOCUMENT for ITEM, due DATE". */
export function partyReminderText(d: PartyReminderFacts): { subject: string; paragraphs: string[] } {
  const item = d.itemNumber ? `${d.itemName} (${d.itemNumber})` : d.itemName;
  const day = formatDate(d.dueDate) ?? "";
  return {
    subject: `Reminder: ${d.companyName} requests ${d.documentLabel} for ${item}, due ${day}`,
    paragraphs: [
      `${d.companyName} asked you for a document: ${d.documentLabel}, for ${item}. It is due ${when(d.threshold, day)}.`,
      "Use the link below, the same as in our first e-mail, to upload the file; no account is needed. The link is for you alone: do not forward it.",
    ],
  };
}

/** What the send-time check reads of the request and of the recorded reminder. */
export interface ReminderCheck {
  request: { status: string; revokedAt: Date | null; expiresAt: Date; dueDate: string | null };
  /** The due date the reminder was recorded for. */
  dueDate: string | null;
  /** Today in the company's zone. */
  today: string;
  now: Date;
}

/**
 * Why a recorded reminder must not go out any more (the sender cancels it with this reason), or
 * null: the sweep recorded it, but the party may have answered, or staff changed the request, since.
 */
export function reminderRefusal({ request, dueDate, today, now }: ReminderCheck): string | null {
  if (request.status === "submitted") return "Document submitted";
  if (request.status !== "open" || request.revokedAt) return "The request is closed";
  if (request.expiresAt.getTime() <= now.getTime()) return "The link has expired";
  if (request.dueDate !== dueDate) return "Due date changed";
  if (dueDate === null || dueDate < today) return "Due date passed";
  return null;
}
