import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backupName } from "./backup-manifest.ts";
import { backupsToKeep, isoWeek, pruneBackups } from "./retention.ts";

const at = (iso: string) => backupName(new Date(iso));

describe("backup retention (BACKUP_KEEP_DAILY, BACKUP_KEEP_WEEKLY)", () => {
  it("names ISO weeks as calendars do (Monday starts a week; the Thursday's year)", () => {
    expect(isoWeek(new Date("2026-11-27T02:30:00Z"))).toBe("2026-W48"); // a Friday
    expect(isoWeek(new Date("2026-11-23T00:00:00Z"))).toBe("2026-W48"); // Monday
    expect(isoWeek(new Date("2026-11-22T23:59:59Z"))).toBe("2026-W47"); // Sunday
    expect(isoWeek(new Date("2027-01-01T02:30:00Z"))).toBe("2026-W53");
    expect(isoWeek(new Date("2025-12-29T02:30:00Z"))).toBe("2026-W01");
  });

  it("keeps the newest backup of each of the last 7 days and of each of the last 4 weeks", () => {
    // 40 nightly backups, 2026-10-19 .. 2026-11-27, plus a second one taken by hand on the last day.
    const nightly = Array.from({ length: 40 }, (_, i) =>
      at(new Date(Date.UTC(2026, 9, 19 + i, 2, 30)).toISOString()),
    );
    const byHand = at("2026-11-27T15:00:00Z");
    const keep = backupsToKeep([...nightly, byHand, "notes", "permitrack-backup-x"], 7, 4);
    expect([...keep].sort()).toEqual(
      [
        // daily: the newest of 27 (the one by hand), 26, 25, 24, 23, 22, 21 November
        byHand,
        at("2026-11-26T02:30:00Z"),
        at("2026-11-25T02:30:00Z"),
        at("2026-11-24T02:30:00Z"),
        at("2026-11-23T02:30:00Z"),
        at("2026-11-22T02:30:00Z"), // also the newest of week 47 (ends Sunday 22nd)
        at("2026-11-21T02:30:00Z"),
        // weekly: W48 (byHand), W47 (22nd), W46 (Sunday 15th), W45 (Sunday 8th)
        at("2026-11-15T02:30:00Z"),
        at("2026-11-08T02:30:00Z"),
      ].sort(),
    );
  });

  it("keeps everything while there are fewer backups than the counts", () => {
    const names = [at("2026-11-26T02:30:00Z"), at("2026-11-27T02:30:00Z")];
    expect(backupsToKeep(names, 7, 4)).toEqual(new Set(names));
  });

  it("prunes only backup folders: the dropped ones and unfinished ones older than a day", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-retention-"));
    const now = new Date("2026-11-27T03:00:00Z");
    const names = Array.from({ length: 10 }, (_, i) =>
      at(new Date(Date.UTC(2026, 10, 18 + i, 2, 30)).toISOString()),
    );
    for (const n of names) fs.mkdirSync(path.join(dir, n));
    fs.mkdirSync(path.join(dir, `${at("2026-11-25T02:30:00Z")}.partial`)); // old leftover
    fs.mkdirSync(path.join(dir, `${at("2026-11-27T02:59:00Z")}.partial`)); // in progress
    fs.mkdirSync(path.join(dir, "mine"));
    fs.writeFileSync(path.join(dir, "permitrack-backup-notes.txt"), "");
    const removed = pruneBackups(dir, 3, 2, now);
    expect(removed.sort()).toEqual(
      [
        ...names.filter((n) => !["20261127", "20261126", "20261125", "20261122"].some((d) => n.includes(d))),
        `${at("2026-11-25T02:30:00Z")}.partial`,
      ].sort(),
    );
    expect(fs.readdirSync(dir).sort()).toEqual(
      [
        at("2026-11-22T02:30:00Z"),
        at("2026-11-25T02:30:00Z"),
        at("2026-11-26T02:30:00Z"),
        at("2026-11-27T02:30:00Z"),
        `${at("2026-11-27T02:59:00Z")}.partial`,
        "mine",
        "permitrack-backup-notes.txt",
      ].sort(),
    );
    fs.rmSync(dir, { recursive: true });
  });
});
