import { describe, expect, it } from "vitest";
import { auditActionLabel, auditText, extensionReasonText, type AuditEntryValues } from "./audit-text.ts";
import { formatAmount, formatAmountChange, formatDate, formatPercentOf } from "./format.ts";

const USD = { currency: "USD" };
const update = (field: string, oldValue: string | null, newValue: string | null, extra = {}) =>
  ({ action: "update", field, oldValue, newValue, ...extra }) satisfies AuditEntryValues;
const text = (entry: AuditEntryValues, options: { currency: string | null; locale?: string } = USD) =>
  auditText(entry, options);

describe("the display formats every side shares", () => {
  it("shows calendar dates in the medium style, and leaves other text alone", () => {
    expect(formatDate("2027-12-01")).toBe("Dec 1, 2027");
    expect(formatDate("2026-11-25")).toBe("Nov 25, 2026");
    expect(formatDate("2027-12-01", "de-DE")).toBe("01.12.2027");
    expect(formatDate(null)).toBeNull();
    expect(formatDate("")).toBeNull();
    expect(formatDate("2026-02-30")).toBe("2026-02-30");
    expect(formatDate("soon")).toBe("soon");
  });

  it("shows amounts in the currency given, signed changes and percentages", () => {
    expect(formatAmount("565263.00", "USD")).toBe("$565,263.00");
    expect(formatAmount("62500.5", "EUR")).toBe("€62,500.50");
    expect(formatAmount("1000", null)).toBe("1,000.00");
    expect(formatAmount("", "USD")).toBeNull();
    expect(formatAmount("n/a", "USD")).toBe("n/a");
    expect(formatAmountChange("25000.00", "USD")).toBe("+$25,000.00");
    expect(formatAmountChange("-295131.50", "GBP")).toBe("-£295,131.50");
    expect(formatPercentOf("50")).toBe("50%");
    expect(formatPercentOf("12.5")).toBe("12.5%");
  });
});

describe("an audit entry in words (issue 25)", () => {
  it("names the action and the field as the forms do", () => {
    expect(text(update("responsible_user_id", null, null))).toMatchObject({
      action: "Update",
      field: "Responsible Person",
    });
    expect(
      text({ action: "maintenance_bond", field: "maintenance_bond", oldValue: null, newValue: "M-1" }),
    ).toEqual({
      action: "Maintenance Bond",
      field: "Maintenance Bond",
      oldValue: null,
      newValue: "M-1",
    });
    expect(text({ action: "create", field: null, oldValue: null, newValue: "P-1" }).field).toBeNull();
    expect(auditActionLabel("ledger")).toBe("Ledger");
  });

  it("words a document request's steps (issue 27)", () => {
    expect(
      text({ action: "request_sent", field: "document_request", oldValue: null, newValue: "Bond Rider" }),
    ).toEqual({ action: "Document Requested", field: "Document", oldValue: null, newValue: "Bond Rider" });
    expect(
      text({ action: "request_sent", field: "request_party", oldValue: null, newValue: "Jane Roe" }),
    ).toMatchObject({
      field: "Requested Of",
    });
    expect(auditActionLabel("request_viewed")).toBe("Request Link Opened");
    expect(auditActionLabel("request_file_uploaded")).toBe("Requested File Uploaded");
    expect(auditActionLabel("request_submitted")).toBe("Requested Document Submitted");
    expect(auditActionLabel("request_approved")).toBe("Requested Document Approved");
    expect(auditActionLabel("request_rejected")).toBe("Requested Document Rejected");
    expect(auditActionLabel("request_revoked")).toBe("Request Link Revoked");
    expect(
      text({ action: "request_rejected", field: "reject_reason", oldValue: null, newValue: "Unsigned" }),
    ).toMatchObject({
      field: "Reason",
      newValue: "Unsigned",
    });
  });

  it("reads codes as the labels the screens use", () => {
    expect(text(update("expiry_rule", "fixed", "after_inspection"))).toMatchObject({
      oldValue: "Fixed date",
      newValue: "Days after last passed inspection",
    });
    expect(text(update("record_type", "permit", "bond"))).toMatchObject({
      oldValue: "Permit",
      newValue: "Bond / Guarantee",
    });
    // The ledger writes labels; a code (an older entry) reads the same.
    expect(
      text({ action: "ledger", field: "bond_status", oldValue: "active", newValue: "Reduced" }),
    ).toMatchObject({
      oldValue: "Active",
      newValue: "Reduced",
    });
    // A value that is no code of the field stays as written (nor is a prototype's key a label).
    expect(text(update("expiry_rule", "constructor", "weekly")).newValue).toBe("weekly");
    expect(text(update("expiry_rule", "constructor", null)).oldValue).toBe("constructor");
  });

  it("shows dates as the screens show them", () => {
    for (const field of [
      "expiration_date",
      "issue_date",
      "start_date",
      "close_date",
      "permit_application_date",
    ]) {
      expect(text(update(field, "2027-06-30", "2027-12-01"))).toMatchObject({
        oldValue: "Jun 30, 2027",
        newValue: "Dec 1, 2027",
      });
    }
    expect(
      text({ action: "collateral", field: "collateral_released", oldValue: null, newValue: "2026-04-10" })
        .newValue,
    ).toBe("Apr 10, 2026");
    expect(
      text(update("expiration_date", "2027-06-30", null), { currency: "USD", locale: "de-DE" }),
    ).toMatchObject({
      oldValue: "30.06.2027",
      newValue: null,
    });
  });

  it("shows amounts in the company's currency", () => {
    expect(
      text({ action: "ledger", field: "current_amount", oldValue: "565263.00", newValue: "282631.50" }),
    ).toMatchObject({ oldValue: "$565,263.00", newValue: "$282,631.50" });
    expect(text(update("bond_amount", null, "125000.5"), { currency: "EUR" }).newValue).toBe("€125,000.50");
    expect(text({ action: "renew", field: "renewal_fee", oldValue: null, newValue: "350" }).newValue).toBe(
      "$350.00",
    );
    // A view without a currency (none known) still groups the digits.
    expect(text(update("bond_amount", null, "1000"), { currency: null }).newValue).toBe("1,000.00");
  });

  it("names the records an id points at, and says so when it cannot", () => {
    const responsible = update(
      "responsible_user_id",
      "92a794a0-9a5b-4122-a98e-02aea681f892",
      "76e32452-6cb1-4f82-9d5b-151c8db7a0fb",
      {
        oldName: "Sam Baker",
        newName: "Dana Whitfield",
      },
    );
    expect(text(responsible)).toMatchObject({ oldValue: "Sam Baker", newValue: "Dana Whitfield" });
    // A deleted user, or a record the reader may not see: never the id.
    expect(text({ ...responsible, oldName: null, newName: undefined })).toMatchObject({
      oldValue: "Former user",
      newValue: "Former user",
    });
    expect(
      text(update("project_id", "92a794a0-9a5b-4122-a98e-02aea681f892", null, { oldName: null })),
    ).toMatchObject({
      oldValue: "Another project",
      newValue: null,
    });
    expect(
      text(update("client_id", null, "92a794a0-9a5b-4122-a98e-02aea681f892", { newName: "Acme" })).newValue,
    ).toBe("Acme");
    expect(
      text(update("company_id", "92a794a0-9a5b-4122-a98e-02aea681f892", "x", { newName: "Summit" })),
    ).toMatchObject({
      oldValue: "Another company",
      newValue: "Summit",
    });
  });

  it("reads yes/no and leaves empty values empty", () => {
    expect(text(update("archived", "false", "true"))).toMatchObject({ oldValue: "No", newValue: "Yes" });
    expect(text(update("agency", null, null))).toMatchObject({ oldValue: null, newValue: null });
    expect(text(update("agency", "City", "County"))).toMatchObject({ oldValue: "City", newValue: "County" });
    expect(text(update("expiry_days", null, "180")).newValue).toBe("180");
  });

  it("shows a condition's entries in words, the task's due date as the screens do (issue 29)", () => {
    expect(
      text({
        action: "condition_added",
        field: "condition",
        oldValue: null,
        newValue: "Inspect (Every 7 days)",
      }),
    ).toEqual({
      action: "Condition Added",
      field: "Condition",
      oldValue: null,
      newValue: "Inspect (Every 7 days)",
    });
    expect(
      text({
        action: "task_not_applicable",
        field: "task",
        oldValue: "Inspect erosion controls due 2026-12-03",
        newValue: "No rain",
      }),
    ).toEqual({
      action: "Task Not Applicable",
      field: "Task",
      oldValue: "Inspect erosion controls due Dec 3, 2026",
      newValue: "No rain",
    });
    expect(
      text({ action: "task_completed", field: "task", oldValue: null, newValue: "Typed due soon" }).newValue,
    ).toBe("Typed due soon");
  });

  it("rewrites the ledger's, collateral's and inspection's composed texts, not typed ones", () => {
    const ledger = (newValue: string) =>
      text({ action: "ledger", field: "bond_ledger", oldValue: null, newValue }).newValue;
    expect(ledger("Rider effective 2026-08-01: +25000.00; Added scope: east wall")).toBe(
      "Rider effective Aug 1, 2026: +$25,000.00; Added scope: east wall",
    );
    expect(ledger("Reduction effective 2026-09-01: -295131.50 (50 %)")).toBe(
      "Reduction effective Sep 1, 2026: -$295,131.50 (50%)",
    );
    expect(ledger("Original Amount effective 2026-07-01: +565263.00")).toBe(
      "Original Amount effective Jul 1, 2026: +$565,263.00",
    );
    expect(ledger("Release effective 2026-10-01: -282631.50; Work accepted; see 2026-09-30 letter")).toBe(
      "Release effective Oct 1, 2026: -$282,631.50; Work accepted; see 2026-09-30 letter",
    );
    expect(
      text({
        action: "collateral",
        field: "collateral",
        oldValue: null,
        newValue: "Letter of Credit 77777.77 held since 2026-01-15",
      }).newValue,
    ).toBe("Letter of Credit $77,777.77 held since Jan 15, 2026");
    expect(
      text({
        action: "inspection",
        field: "inspection",
        oldValue: null,
        newValue: "Final: framing: Passed on 2026-11-20",
      }).newValue,
    ).toBe("Final: framing: Passed on Nov 20, 2026");
    expect(
      text({
        action: "extend",
        field: "reason",
        oldValue: null,
        newValue: "Final passed on 2026-05-01 (+180 days)",
      }).newValue,
    ).toBe("Final passed on May 1, 2026 (+180 days)");
    expect(extensionReasonText("Final passed on 2026-05-01 (+180 days)", "de-DE")).toBe(
      "Final passed on 01.05.2026 (+180 days)",
    );
    // A reason someone typed is theirs: its dates stay as typed.
    expect(
      text({ action: "extend", field: "reason", oldValue: null, newValue: "Agency granted until 2027-01-01" })
        .newValue,
    ).toBe("Agency granted until 2027-01-01");
    // A comment is text.
    expect(
      text({ action: "comment", field: "comment", oldValue: null, newValue: "fixed -> bond" }).newValue,
    ).toBe("fixed -> bond");
  });
});
