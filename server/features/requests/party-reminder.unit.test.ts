import { describe, expect, it } from "vitest";
import { partyReminderText, reminderRefusal, type ReminderCheck } from "./party-reminder.ts";

const facts = {
  companyName: "Acme Builders",
  documentLabel: "Renewed Permit",
  itemName: "Street Opening",
  itemNumber: "SO-12",
  dueDate: "2035-03-10",
};

describe("the party's reminder e-mail", () => {
  it("says who asks for what, for which item, and when it is due", () => {
    expect(partyReminderText({ ...facts, threshold: 7 })).toEqual({
      subject: "Reminder: Acme Builders requests Renewed Permit for Street Opening (SO-12), due Mar 10, 2035",
      paragraphs: [
        "Acme Builders asked you for a document: Renewed Permit, for Street Opening (SO-12). It is due in 7 days, on Mar 10, 2035.",
        expect.stringContaining("the same as in our first e-mail"),
      ],
    });
    expect(partyReminderText({ ...facts, threshold: 1 }).paragraphs[0]).toMatch(
      /due tomorrow, Mar 10, 2035\.$/,
    );
    expect(partyReminderText({ ...facts, itemNumber: null, threshold: 0 }).subject).toBe(
      "Reminder: Acme Builders requests Renewed Permit for Street Opening, due Mar 10, 2035",
    );
    expect(partyReminderText({ ...facts, threshold: 0 }).paragraphs[0]).toMatch(/due today, Mar 10, 2035\.$/);
  });
});

describe("the send-time check", () => {
  const now = new Date("2035-03-03T12:00:00Z");
  const open: ReminderCheck["request"] = {
    status: "open",
    revokedAt: null,
    expiresAt: new Date("2035-04-01T00:00:00Z"),
    dueDate: "2035-03-10",
  };
  const check = (request: Partial<ReminderCheck["request"]>, dueDate = "2035-03-10", today = "2035-03-03") =>
    reminderRefusal({ request: { ...open, ...request }, dueDate, today, now });

  it("lets an open request's reminder go, and stops it once answered, closed, expired, re-dated or past", () => {
    expect(check({})).toBeNull();
    expect(check({}, "2035-03-10", "2035-03-10")).toBeNull(); // on the due date itself
    expect(check({ status: "submitted" })).toBe("Document submitted");
    expect(check({ status: "approved" })).toBe("The request is closed");
    expect(check({ status: "revoked", revokedAt: now })).toBe("The request is closed");
    expect(check({ expiresAt: now })).toBe("The link has expired");
    expect(check({ dueDate: "2035-03-12" })).toBe("Due date changed");
    expect(check({}, "2035-03-10", "2035-03-11")).toBe("Due date passed");
  });
});
