import fs from "node:fs";
import path from "node:path";
import { BACKUP_PREFIX, PARTIAL_SUFFIX, backupTime } from "./backup-manifest.ts";

/** An unfinished backup folder older than this was left by a run that died: removed. */
const PARTIAL_MAX_AGE_MS = 24 * 60 * 60_000;

/** The ISO week a day belongs to, as "2026-W48" (weeks start on Monday; the week's Thursday names the year). */
export function isoWeek(at: Date): string {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

/**
 * Which backups to keep: the newest of each of the last `daily` days that have one, and the newest
 * of each of the last `weekly` ISO weeks that have one (UTC), as restic's --keep-daily and
 * --keep-weekly count them. Names are folder names; the rest may go.
 */
export function backupsToKeep(names: string[], daily: number, weekly: number): Set<string> {
  const dated = names
    .map((name) => ({ name, at: backupTime(name) }))
    .filter((b): b is { name: string; at: Date } => b.at !== null)
    .sort((a, b) => b.at.getTime() - a.at.getTime());
  const keep = new Set<string>();
  const pick = (bucket: (at: Date) => string, count: number) => {
    const seen = new Set<string>();
    for (const b of dated) {
      if (seen.size >= count) break;
      const key = bucket(b.at);
      if (seen.has(key)) continue;
      seen.add(key);
      keep.add(b.name);
    }
  };
  pick((at) => at.toISOString().slice(0, 10), daily);
  pick(isoWeek, weekly);
  return keep;
}

/**
 * Applies the retention to a backup folder: removes the whole backups it does not keep, and
 * unfinished ones older than a day. Touches nothing but folders named as backups are. Returns the
 * names removed.
 */
export function pruneBackups(dir: string, daily: number, weekly: number, now = new Date()): string[] {
  if (!fs.existsSync(dir)) return [];
  const entries = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  const whole = entries.map((e) => e.name).filter((n) => backupTime(n) !== null);
  const keep = backupsToKeep(whole, daily, weekly);
  const removed: string[] = [];
  for (const name of whole) {
    if (keep.has(name)) continue;
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  for (const e of entries) {
    if (!e.name.startsWith(BACKUP_PREFIX) || !e.name.endsWith(PARTIAL_SUFFIX)) continue;
    const at = backupTime(e.name.slice(0, -PARTIAL_SUFFIX.length));
    if (at && now.getTime() - at.getTime() > PARTIAL_MAX_AGE_MS) {
      fs.rmSync(path.join(dir, e.name), { recursive: true, force: true });
      removed.push(e.name);
    }
  }
  return removed;
}
