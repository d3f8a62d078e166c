// What reminders know of document requests (issue 27, item 5; decision 0029): the party's own
// reminders before its due date, the 'Renewal Pending' pause of the item's routine reminders, and
// the words the staff digest uses for a request. Server (sweep, digest, the party's e-mail) and
// web (the Reminders card) read this file.

import { documentLabel, type DocumentKind } from "./document-requests.ts";
import { formatDate } from "./format.ts";

/**
 * The party's reminders: 7 and 1 days before the request's due date, and on it (company-local
 * days). Each is recorded once per (request, threshold, due date); a missed day is caught up once
 * within its window (down to the next threshold); none for a day the party did not yet have the
 * request (created on or after the threshold's day), none once the due date has passed.
 */
export const REQUEST_REMINDER_DAYS = [7, 1, 0] as const;
export type RequestReminderDay = (typeof REQUEST_REMINDER_DAYS)[number];

/**
 * 'Renewal Pending': while a submission awaits review, and for at most this many days after it was
 * submitted, the item's routine reminders and escalations pause; left unreviewed longer, they
 * resume (a forgotten review must not silence an expiring permit).
 */
export const RENEWAL_PENDING_DAYS = 14;
export const RENEWAL_PENDING_LABEL = "Renewal Pending";

/** What a request asks for, as the digest's sentence starts: a renewed permit is a 'Renewal'. */
export const requestedThing = (kind: DocumentKind, title: string | null | undefined): string =>
  kind === "renewed_permit" ? "Renewal" : documentLabel(kind, title);

/**
 * The line that replaces a routine reminder's countdown while a request is open and not overdue:
 * "Renewal requested from Jane Roe on Nov 2, 2026, due Nov 20, 2026" (no due part without a due date).
 */
export function requestedLine(r: {
  documentKind: DocumentKind;
  title: string | null;
  partyName: string;
  requestedOn: string;
  dueDate: string | null;
}): string {
  const due = r.dueDate ? `, due ${formatDate(r.dueDate)}` : "";
  return `${requestedThing(r.documentKind, r.title)} requested from ${r.partyName} on ${formatDate(r.requestedOn)}${due}`;
}
