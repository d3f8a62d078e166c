import { describe, expect, it } from "vitest";
import { addDays, daysBetween, isIsoDate, todayIn } from "./dates.ts";
import { can, navLinksFor } from "./permissions.ts";
import {
  displayPermitStatus,
  listCategory,
  statusChipColor,
  urgency,
} from "./permit-rules.ts";
import { displayProjectStatus } from "./statuses.ts";

describe("permission matrix (spec section 6)", () => {
  it("lets only super-admins and company-admins delete permits", () => {
    expect(can("super-admin", "permits.delete")).toBe(true);
    expect(can("company-admin", "permits.delete")).toBe(true);
    expect(can("company-user", "permits.delete")).toBe(false);
    expect(can("client-user", "permits.delete")).toBe(false);
  });
  it("keeps client-users read-only and away from internal comments", () => {
    expect(can("client-user", "permits.edit")).toBe(false);
    expect(can("client-user", "permits.create")).toBe(false);
    expect(can("client-user", "comments.viewInternal")).toBe(false);
    expect(can("company-user", "comments.viewInternal")).toBe(true);
  });
  it("gives the admin dashboard to admins only", () => {
    expect(can("company-user", "admin.dashboard")).toBe(false);
    expect(can("client-user", "admin.dashboard")).toBe(false);
    expect(can(undefined, "permits.view")).toBe(false);
  });
  it("builds the nav by role", () => {
    expect(navLinksFor("company-user").map((l) => l.label)).toEqual(["Permits"]);
    expect(navLinksFor("client-user").map((l) => l.label)).toEqual(["Permits"]);
    expect(navLinksFor("company-admin").map((l) => l.label)).toEqual([
      "Permits",
      "Notifications",
      "Permit Templates",
      "Clients",
      "Projects",
      "Users",
      "Import",
    ]);
    expect(navLinksFor("super-admin").at(-1)).toEqual({ label: "Companies", to: "/admin/companies" });
  });
});

describe("calendar dates", () => {
  it("validates real dates only", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2025-02-29")).toBe(false);
    expect(isIsoDate("2025-13-01")).toBe(false);
    expect(isIsoDate("12/01/2025")).toBe(false);
  });
  it("computes today in a time zone around midnight", () => {
    const instant = new Date("2026-03-01T03:30:00Z");
    expect(todayIn("UTC", instant)).toBe("2026-03-01");
    expect(todayIn("America/Los_Angeles", instant)).toBe("2026-02-28");
    expect(todayIn("Asia/Tokyo", instant)).toBe("2026-03-01");
  });
  it("turns the day at each zone's midnight to the millisecond, though it keeps the answer for a minute", () => {
    const at = (iso: string) => new Date(iso);
    // Kathmandu is UTC+05:45: its midnight falls at 18:15 UTC.
    expect(todayIn("Asia/Kathmandu", at("2026-03-01T18:14:00.000Z"))).toBe("2026-03-01");
    expect(todayIn("UTC", at("2026-03-01T18:14:30.000Z"))).toBe("2026-03-01");
    expect(todayIn("Asia/Kathmandu", at("2026-03-01T18:14:59.999Z"))).toBe("2026-03-01");
    expect(todayIn("Asia/Kathmandu", at("2026-03-01T18:15:00.000Z"))).toBe("2026-03-02");
    // New York leaves EST for EDT on 2026-03-08; its midnight before is 05:00 UTC, after 04:00 UTC.
    expect(todayIn("America/New_York", at("2026-03-08T04:59:59.999Z"))).toBe("2026-03-07");
    expect(todayIn("America/New_York", at("2026-03-08T05:00:00.000Z"))).toBe("2026-03-08");
    expect(todayIn("America/New_York", at("2026-03-09T03:59:59.999Z"))).toBe("2026-03-08");
    expect(todayIn("America/New_York", at("2026-03-09T04:00:00.000Z"))).toBe("2026-03-09");
    // Back in time too (a clock set back, a test's fake time).
    expect(todayIn("America/New_York", at("2026-03-08T04:59:59.999Z"))).toBe("2026-03-07");
    // Before 1972, offsets with seconds: never kept. Monrovia was UTC-00:44:30 until 1972.
    expect(todayIn("Africa/Monrovia", at("1960-06-01T00:44:29.000Z"))).toBe("1960-05-31");
    expect(todayIn("Africa/Monrovia", at("1960-06-01T00:44:31.000Z"))).toBe("1960-06-01");
  });
  it("counts whole days across DST changes", () => {
    expect(daysBetween("2026-03-07", "2026-03-09")).toBe(2);
    expect(daysBetween("2026-03-09", "2026-03-07")).toBe(-2);
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });
});

describe("permit rules (spec section 4)", () => {
  it("categorises the list dashboard", () => {
    expect(listCategory({ expiration_date: "2026-01-01" })).toBe("Active");
    expect(listCategory({ permit_application_date: "2026-01-01" })).toBe("In Review");
    expect(listCategory({ start_date: "2026-01-01" })).toBe("In Progress");
    expect(listCategory({})).toBeNull();
  });
  it("highlights expired and expiring-within-30-days rows", () => {
    expect(urgency("2026-11-21", "2026-11-22")).toBe("expired");
    expect(urgency("2026-11-22", "2026-11-22")).toBe("expiring");
    expect(urgency("2026-12-22", "2026-11-22")).toBe("expiring");
    expect(urgency("2026-12-23", "2026-11-22")).toBeNull();
    expect(urgency(null, "2026-11-22")).toBeNull();
  });
  it("shows Expired once the date has passed, whatever is stored", () => {
    expect(displayPermitStatus("Required", "2026-01-01", "2026-11-22")).toBe("Expired");
    expect(displayPermitStatus("Pending", "2027-01-01", "2026-11-22")).toBe("Pending");
    expect(statusChipColor("Expired")).toBe("error");
    expect(statusChipColor("Pending")).toBe("warning");
    expect(statusChipColor("Required")).toBe("success");
  });
  it("displays unknown project statuses as In Progress", () => {
    expect(displayProjectStatus("Complete")).toBe("Completed");
    expect(displayProjectStatus("weird")).toBe("In Progress");
    expect(displayProjectStatus("On Hold")).toBe("On Hold");
  });
});

describe("whole days between calendar dates", () => {
  it("counts across months, leap days and years, and refuses what is not a date", () => {
    expect(daysBetween("2026-11-24", "2026-12-24")).toBe(30);
    expect(daysBetween("2024-02-28", "2024-03-01")).toBe(2);
    expect(daysBetween("2026-01-01", "2025-01-01")).toBe(-365);
    expect(daysBetween("0001-01-01", "0001-01-02")).toBe(1);
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(Number.isNaN(daysBetween("2026-11-24", "2026-13-01"))).toBe(true);
    expect(Number.isNaN(daysBetween("2026-11-24", "not a date"))).toBe(true);
    // Read digit by digit: any other character in a date's place is no date.
    for (const bad of ["2026-1x-01", "20a6-01-01", "2026-01-0?", "2026-+1-01", "2026- 1-01"])
      expect(Number.isNaN(daysBetween("2026-11-24", bad)), bad).toBe(true);
    expect(daysBetween("2026-11-24", "2026-11-24")).toBe(0);
  });
});
