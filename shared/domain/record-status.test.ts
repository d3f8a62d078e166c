import { describe, expect, it } from "vitest";
import { addDays } from "./dates.ts";
import {
  isClosedRecord,
  recordStatus,
  recordUrgency,
  statusTone,
  type RecordStatusFacts,
} from "./record-status.ts";

const today = "2026-11-25";
const permit = (over: Partial<RecordStatusFacts> = {}): RecordStatusFacts => ({
  status: "Required",
  expiration_date: addDays(today, 26),
  close_date: null,
  final_status: null,
  bond_status: null,
  ...over,
});
const bond = (over: Partial<RecordStatusFacts> = {}) => permit({ bond_status: "active", ...over });

describe("isClosedRecord", () => {
  it("is closed with a close date, or as a released or cancelled bond (even without a close date)", () => {
    expect(isClosedRecord(permit())).toBe(false);
    expect(isClosedRecord(permit({ close_date: today }))).toBe(true);
    expect(isClosedRecord(bond({ bond_status: "released" }))).toBe(true);
    expect(isClosedRecord(bond({ bond_status: "cancelled" }))).toBe(true);
    for (const open of ["active", "reduced", "claimed"] as const)
      expect(isClosedRecord(bond({ bond_status: open }))).toBe(false);
  });
});

describe("recordStatus: one status per record", () => {
  it("reads a permit's stored status, Expired once its date has passed, Closed with its final status", () => {
    expect(recordStatus(permit(), today)).toBe("Required");
    expect(recordStatus(permit({ status: "Pending" }), today)).toBe("Pending");
    expect(recordStatus(permit({ expiration_date: addDays(today, -1) }), today)).toBe("Expired");
    expect(recordStatus(permit({ expiration_date: today }), today)).toBe("Required");
    expect(
      recordStatus(
        permit({ expiration_date: addDays(today, -40), close_date: today, final_status: "Finaled" }),
        today,
      ),
    ).toBe("Closed · Finaled");
    expect(recordStatus(permit({ close_date: today }), today)).toBe("Closed");
  });

  it("reads a bond's ledger status, 'past expiry' for an open bond past its date, never Expired", () => {
    expect(recordStatus(bond(), today)).toBe("Active");
    expect(recordStatus(bond({ bond_status: "reduced" }), today)).toBe("Reduced");
    const past = addDays(today, -3);
    expect(recordStatus(bond({ expiration_date: past }), today)).toBe("Active · past expiry");
    expect(recordStatus(bond({ bond_status: "reduced", expiration_date: past }), today)).toBe(
      "Reduced · past expiry",
    );
    expect(recordStatus(bond({ bond_status: "claimed", expiration_date: past }), today)).toBe("Claimed");
  });

  it("reads a released or cancelled bond as such, whatever its dates or close date", () => {
    const released = bond({ bond_status: "released", close_date: today, final_status: "Completed" });
    expect(recordStatus(released, today)).toBe("Released");
    expect(recordStatus({ ...released, expiration_date: addDays(today, -10) }, today)).toBe("Released");
    expect(recordStatus(bond({ bond_status: "cancelled" }), today)).toBe("Cancelled");
    // Closed with 'Close Permit' while its ledger is open: the closing speaks.
    expect(recordStatus(bond({ close_date: today, final_status: "Completed" }), today)).toBe(
      "Closed · Completed",
    );
  });

  it("colours each status: red to act on, amber pending, grey closed, green otherwise", () => {
    expect(statusTone("Expired")).toBe("error");
    expect(statusTone("Active · past expiry")).toBe("error");
    expect(statusTone("Claimed")).toBe("error");
    expect(statusTone("Pending")).toBe("warning");
    expect(statusTone("Reduced")).toBe("info");
    expect(statusTone("Released")).toBe("default");
    expect(statusTone("Cancelled")).toBe("default");
    expect(statusTone("Closed · Finaled")).toBe("default");
    expect(statusTone("N/A")).toBe("default");
    expect(statusTone("Active")).toBe("success");
    expect(statusTone("Required")).toBe("success");
  });
});

describe("recordUrgency", () => {
  it("has no urgency once closed: a released bond 26 days from its date is not expiring soon", () => {
    expect(recordUrgency(bond(), today)).toBe("expiring");
    expect(recordUrgency(bond({ bond_status: "released" }), today)).toBeNull();
    expect(
      recordUrgency(bond({ bond_status: "cancelled", expiration_date: addDays(today, -5) }), today),
    ).toBeNull();
    expect(recordUrgency(permit({ close_date: today }), today)).toBeNull();
    expect(recordUrgency(permit({ expiration_date: addDays(today, -5) }), today)).toBe("expired");
  });
});
