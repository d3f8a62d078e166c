import { describe, expect, it } from "vitest";
import {
  describeSchedule,
  endOfLocalDay,
  eventTask,
  firstTask,
  instantToLocalDateTime,
  localDateTimeToInstant,
  nextTask,
  occurrenceDate,
  type ScheduleSpec,
} from "./condition-schedule.ts";

const NY = "America/New_York";
const blank: ScheduleSpec = {
  schedule: "once",
  dueDate: null,
  interval: null,
  unit: null,
  startsOn: null,
  endsOn: null,
  offsetAmount: null,
  offsetUnit: null,
  milestoneAt: null,
};
const every = (
  interval: number,
  unit: "days" | "weeks" | "months",
  startsOn: string,
  endsOn: string | null = null,
) => ({
  ...blank,
  schedule: "every" as const,
  interval,
  unit,
  startsOn,
  endsOn,
});

describe("local date-times in a zone", () => {
  it("reads a local time on either side of a DST change", () => {
    expect(localDateTimeToInstant("2026-10-31T09:00", NY)).toBe("2026-10-31T13:00:00.000Z");
    expect(localDateTimeToInstant("2026-11-02T09:00", NY)).toBe("2026-11-02T14:00:00.000Z");
    expect(localDateTimeToInstant("2026-06-01T12:00", "UTC")).toBe("2026-06-01T12:00:00.000Z");
    expect(localDateTimeToInstant("2026-06-01T12:00", "Asia/Kolkata")).toBe("2026-06-01T06:30:00.000Z");
  });
  it("takes the later instant in a spring gap and the earlier in the fall's repeated hour", () => {
    // 02:30 on Mar 8, 2026 does not exist in New York: read with the offset before the change.
    expect(localDateTimeToInstant("2026-03-08T02:30", NY)).toBe("2026-03-08T07:30:00.000Z");
    expect(localDateTimeToInstant("2026-11-01T01:30", NY)).toBe("2026-11-01T05:30:00.000Z");
  });
  it("writes an instant as the zone's wall clock", () => {
    expect(instantToLocalDateTime("2026-11-02T14:00:00.000Z", NY)).toBe("2026-11-02T09:00");
    expect(instantToLocalDateTime("2026-07-01T04:00:00.000Z", NY)).toBe("2026-07-01T00:00");
    expect(instantToLocalDateTime("2026-12-31T23:30:00Z", "Pacific/Auckland")).toBe("2027-01-01T12:30");
  });
  it("ends a local day at the next local midnight", () => {
    expect(endOfLocalDay("2026-10-27", NY)).toBe("2026-10-28T04:00:00.000Z");
    expect(endOfLocalDay("2026-11-03", NY)).toBe("2026-11-04T05:00:00.000Z");
    expect(endOfLocalDay("2026-12-31", "Europe/Berlin")).toBe("2026-12-31T23:00:00.000Z");
  });
});

describe("'Every' schedules", () => {
  it("weekly across the fall DST change: calendar weeks, due at local midnight after each date", () => {
    const spec = every(1, "weeks", "2026-10-20");
    const first = firstTask(spec, NY, "2026-10-22");
    expect(first).toEqual({
      occurrence: 1,
      dueOn: "2026-10-27",
      dueAt: "2026-10-28T04:00:00.000Z",
      timed: false,
    });
    const second = nextTask(spec, NY, 1);
    // 7 calendar days later, but 169 hours: the offset went from -4 to -5.
    expect(second).toEqual({
      occurrence: 2,
      dueOn: "2026-11-03",
      dueAt: "2026-11-04T05:00:00.000Z",
      timed: false,
    });
    expect(Date.parse(second!.dueAt) - Date.parse(first!.dueAt)).toBe(169 * 3_600_000);
  });
  it("every 7 days across the spring change stays on the same weekday", () => {
    const spec = every(7, "days", "2026-03-02");
    expect(occurrenceDate(spec, 1)).toBe("2026-03-09");
    expect(nextTask(spec, NY, 0)?.dueAt).toBe("2026-03-10T04:00:00.000Z");
    expect(firstTask(spec, NY, "2026-03-01")?.dueAt).toBe("2026-03-03T05:00:00.000Z");
  });
  it("monthly on the 31st falls on each month's last day, anchored (never chained)", () => {
    const spec = every(1, "months", "2026-01-31");
    const dates = [0, 1, 2, 3, 4, 12, 13].map((n) => occurrenceDate(spec, n));
    expect(dates).toEqual([
      "2026-01-31",
      "2026-02-28",
      "2026-03-31",
      "2026-04-30",
      "2026-05-31",
      "2027-01-31",
      "2027-02-28",
    ]);
    expect(occurrenceDate(spec, 25)).toBe("2028-02-29");
    expect(occurrenceDate(every(3, "months", "2026-11-30"), 1)).toBe("2027-02-28");
    expect(firstTask(spec, NY, "2026-03-01")).toMatchObject({ occurrence: 2, dueOn: "2026-03-31" });
  });
  it("the first occurrence is on or after today", () => {
    const spec = every(2, "weeks", "2026-01-05");
    expect(firstTask(spec, NY, "2026-01-01")?.dueOn).toBe("2026-01-05");
    expect(firstTask(spec, NY, "2026-01-05")?.dueOn).toBe("2026-01-05");
    expect(firstTask(spec, NY, "2026-01-06")).toMatchObject({ occurrence: 1, dueOn: "2026-01-19" });
    expect(firstTask(spec, NY, "2026-01-19")).toMatchObject({ occurrence: 1, dueOn: "2026-01-19" });
    expect(firstTask(spec, NY, "2026-12-30")).toMatchObject({ occurrence: 26, dueOn: "2027-01-04" });
  });
  it("makes none past ends_on", () => {
    const spec = every(1, "weeks", "2026-01-05", "2026-01-19");
    expect(nextTask(spec, NY, 1)?.dueOn).toBe("2026-01-19");
    expect(nextTask(spec, NY, 2)).toBeNull();
    expect(firstTask(spec, NY, "2026-01-20")).toBeNull();
  });
  it("other schedules have no next task", () => {
    expect(nextTask({ ...blank, dueDate: "2026-01-01" }, NY, 0)).toBeNull();
  });
});

describe("'Once' and event windows", () => {
  it("once is due at the end of its local date", () => {
    expect(firstTask({ ...blank, dueDate: "2026-07-04" }, NY, "2026-01-01")).toEqual({
      occurrence: 0,
      dueOn: "2026-07-04",
      dueAt: "2026-07-05T04:00:00.000Z",
      timed: false,
    });
  });
  it("before an event: hours exactly, days as local days at the same wall time", () => {
    const pour = localDateTimeToInstant("2026-11-02T07:00", NY);
    const hours = {
      ...blank,
      schedule: "before_event" as const,
      offsetAmount: 48,
      offsetUnit: "hours" as const,
      milestoneAt: pour,
    };
    // 48 hours before 07:00 EST on Nov 2 is 08:00 EDT on Oct 31 (the night had 25 hours).
    expect(firstTask(hours, NY, "2026-10-01")).toEqual({
      occurrence: 0,
      dueAt: "2026-10-31T12:00:00.000Z",
      dueOn: "2026-10-31",
      timed: true,
    });
    const days = { ...hours, offsetAmount: 2, offsetUnit: "days" as const };
    expect(instantToLocalDateTime(firstTask(days, NY, "2026-10-01")!.dueAt, NY)).toBe("2026-10-31T07:00");
  });
  it("the local date of a timed task is the company's, not UTC's", () => {
    const late = localDateTimeToInstant("2026-06-01T22:00", NY);
    const after = {
      ...blank,
      schedule: "after_event" as const,
      offsetAmount: 1,
      offsetUnit: "hours" as const,
    };
    expect(eventTask(after, NY, late)).toEqual({
      occurrence: null,
      dueAt: "2026-06-02T03:00:00.000Z",
      dueOn: "2026-06-01",
      timed: true,
    });
    expect(firstTask(after, NY, "2026-01-01")).toBeNull();
  });
  it("after an event in days keeps the wall time across a DST change", () => {
    const rain = localDateTimeToInstant("2026-10-31T18:00", NY);
    const after = {
      ...blank,
      schedule: "after_event" as const,
      offsetAmount: 1,
      offsetUnit: "days" as const,
    };
    expect(instantToLocalDateTime(eventTask(after, NY, rain).dueAt, NY)).toBe("2026-11-01T18:00");
    const hours = { ...after, offsetAmount: 24, offsetUnit: "hours" as const };
    expect(instantToLocalDateTime(eventTask(hours, NY, rain).dueAt, NY)).toBe("2026-11-01T17:00");
  });
});

describe("describeSchedule", () => {
  const words = { milestoneName: null, eventKind: null };
  it("puts each schedule in words", () => {
    expect(describeSchedule({ ...every(7, "days", "2026-12-01"), ...words }, NY)).toBe(
      "Every 7 days from Dec 1, 2026",
    );
    expect(describeSchedule({ ...every(1, "months", "2026-01-31", "2026-12-31"), ...words }, NY)).toBe(
      "Every month from Jan 31, 2026 until Dec 31, 2026",
    );
    expect(describeSchedule({ ...blank, dueDate: "2026-07-04", ...words }, NY)).toBe("Once, due Jul 4, 2026");
    expect(
      describeSchedule(
        {
          ...blank,
          schedule: "before_event",
          offsetAmount: 48,
          offsetUnit: "hours",
          milestoneAt: localDateTimeToInstant("2026-12-03T07:00", NY),
          milestoneName: "Pour",
          eventKind: null,
        },
        NY,
      ),
    ).toBe("48 hours before Pour (Dec 3, 2026, 7:00 AM)");
    expect(
      describeSchedule(
        {
          ...blank,
          schedule: "after_event",
          offsetAmount: 24,
          offsetUnit: "hours",
          milestoneName: null,
          eventKind: "Rain ≥ 0.25 in",
        },
        NY,
      ),
    ).toBe("Within 24 hours of Rain ≥ 0.25 in");
  });
});
